import { defineConfig } from 'vitest/config';

/**
 * The Citus suite (`npm run test:citus`, scripts/test-citus.ts): the suites run on a database
 * distributed by tenant, each file on its own distributed database (server/test/citus.ts).
 * Files run one at a time: each makes a database on three nodes.
 */
export default defineConfig({
  test: {
    // The stock concurrency storm (server/modules/stock/concurrency.test.ts) passes on Citus in
    // some runs only: in others a worker broke 2 deadlocks and one stock row differed from its
    // ledger (decision 042, Consequences). It joins once that is found and fixed.
    include: [
      'server/db/distribution.test.ts',
      'server/db/tenancy.test.ts',
      'server/modules/dashboard/dashboard.test.ts',
      'server/modules/reports/reports.test.ts',
      'server/modules/forecast/forecast.test.ts',
      'server/modules/team/team.test.ts',
    ],
    globalSetup: ['./server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
