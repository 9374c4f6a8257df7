/**
 * Before the browser tests: bundles the server (`npm run build:server`, as `npm start` does) so
 * every spec starts the code of this checkout (e2e/fixtures/server.ts), and names this run, so
 * that its workers share the data directories of e2e/fixtures/templates.ts; Playwright passes
 * the main process's environment to the workers. The web app is built beforehand (`npm run build`,
 * README).
 */
import { randomUUID } from 'node:crypto';
import { bundleServer } from './fixtures/server';

export default function globalSetup(): void {
  bundleServer();
  process.env.E2E_RUN_ID ??= randomUUID();
}
