import { defineConfig } from 'vitest/config';

/**
 * The Citus suite (`npm run test:citus`, scripts/test-citus.ts): the suites run on a database
 * distributed by tenant, each file on its own distributed database (server/test/citus.ts).
 * Files run one at a time: each makes a database on three nodes.
 */
export default defineConfig({
  test: {
    include: [
      'server/db/distribution.test.ts',
      'server/db/tenancy.test.ts',
      'server/modules/dashboard/dashboard.test.ts',
      'server/modules/reports/reports.test.ts',
      'server/modules/forecast/forecast.test.ts',
      'server/modules/team/team.test.ts',
      'server/modules/calendars/calendars.test.ts',
      'server/modules/stock/concurrency.test.ts',
      'server/jobs/queue.test.ts',
      'server/citus-servers.test.ts',
    ],
    globalSetup: ['./server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
