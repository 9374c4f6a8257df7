import { defineConfig } from 'vitest/config';

/**
 * Files that replace a module (`vi.mock`), the process's time zone, or watch the worker threads a
 * module starts at import: each runs in a fresh process. The rest share their worker's module
 * cache from file to file (`isolate: false`): loading the server's modules afresh for each of 130
 * files cost a third of the suite's time on two cores (849 s isolated, 627 s shared; decision
 * 045, docs/decisions/045-test-files-share-modules.md).
 */
const ISOLATED = [
  'server/db/pglite-thread.test.ts',
  'server/modules/reports/utc-days.test.ts',
  'web/app/query-client.test.ts',
  'web/app/router.test.ts',
  'web/lib/outbox/outbox.test.ts',
  'web/features/subscription/handle-plan-error.test.ts',
];

const FILES = ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on two cores (vitest's default is one there): 440 s instead of 691 s,
    // a file waiting on its database while the other runs (decision 045).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: FILES, exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
