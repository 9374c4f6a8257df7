import { defineConfig } from 'vitest/config';

/**
 * The Citus suite (`npm run test:citus`, scripts/test-citus.ts): the suites run on a database
 * distributed by tenant, each file on its own distributed database (server/test/citus.ts).
 * Files run one at a time: each makes a database on three nodes.
 */
export default defineConfig({
  test: {
    // The API suites (tenancy, the stock storm, dashboard, reports, forecast, team) join once a
    // company's writes run on Citus: docs/operations.md "Moving to Citus" says what stops them.
    include: ['server/db/distribution.test.ts'],
    globalSetup: ['./server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
