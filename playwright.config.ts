import { defineConfig } from '@playwright/test';

/** Browser tests in Debian's Chromium (Playwright's own browser download cannot work here). */
export default defineConfig({
  testDir: './e2e',
  // One demo data set seeded per run and copied for each spec that needs it (e2e/fixtures/demo.ts).
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  // Two specs at a time on the two cores: each starts its own server and database, on its own port.
  workers: 2,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    // Only the specs about the installable app and offline use let the service worker in
    // (test.use({ serviceWorkers: 'allow' })): elsewhere each new page would precache the whole
    // app shell (~800 kB, decision 046) for nothing.
    serviceWorkers: 'block',
    // Recording a trace costs every test, passing or not, since the recorder does not know the
    // outcome ahead: Chromium's CPU time doubled with it (decision 054). To see a failure step by
    // step, run its spec again with `npx playwright test <spec> --trace retain-on-failure`.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
