/**
 * Names this browser-test run, so that its workers share one seeded demo template
 * (e2e/fixtures/demo.ts); Playwright passes the main process's environment to the workers.
 */
import { randomUUID } from 'node:crypto';

export default function globalSetup(): void {
  process.env.E2E_RUN_ID ??= randomUUID();
}
