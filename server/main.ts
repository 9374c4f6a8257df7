/**
 * Boot: parse config -> open the database -> migrate -> listen -> graceful shutdown on
 * SIGINT/SIGTERM or a fatal error, bounded by SHUTDOWN_GRACE_MS (close-with-grace) (docs/ARCHITECTURE.md "The parts"). Without DATABASE_URL the embedded PGlite in
 * DATA_DIR is used and a random APP_SECRET is generated once and kept there.
 *
 * Everything the process writes is a JSON line of the one server log (lib/request-log.ts), from the
 * first configuration warning to the last shutdown step, including a failed boot.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, configWarnings, loadConfig, type Config } from './config';
import { DataDirLockedError, openPglite, openPostgres, type Database } from './db/client';
import { startJobQueue } from './jobs/queue';
import { runMigrations } from './db/migrate';
import { createServerLogger, sendStrayOutputToLog } from './lib/request-log';
import { openIdentityCache } from './modules/auth/identity-cache';
import { webRoot } from './paths';

/** How long a shutdown may take before the process exits anyway (milliseconds). */
const SHUTDOWN_GRACE_MS = 10_000;

/** Reads DATA_DIR/app-secret, creating it (0600) with 48 random bytes on first boot. */
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

const log = createServerLogger();
sendStrayOutputToLog(log);

async function main(): Promise<void> {
  for (const { variable, meant, message } of configWarnings()) log.warn({ variable, meant }, message);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      log.fatal(err.message);
      process.exit(1);
    }
    throw err;
  }

  let database: Database;
  try {
    database = config.databaseUrl ? openPostgres(config.databaseUrl, config.databasePoolSize) : await openPglite(resolve(config.dataDir));
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      log.fatal(err.message);
      process.exit(1);
    }
    throw err;
  }
  await runMigrations(database);

  const appSecret = config.appSecret ?? embeddedSecret(resolve(config.dataDir));
  const identityFeed = openIdentityCache(database);
  const jobs = await startJobQueue(database);
  const app = await buildApp({
    config: { ...config, appSecret },
    db: database.db,
    jobs,
    identities: identityFeed.cache,
    logger: log,
    webRoot,
  });

  // A bounded shutdown: a request or a database close that never ends must not keep the process
  // (and a deploy or a test run waiting on it) alive; a second signal exits at once.
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS, logger: { error: (m: string) => app.log.error(m) } }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info(`${signal} received, shutting down`);
    // Each step is logged, so a shutdown cut off by the grace period shows which part held it.
    const step = async (name: string, run: () => Promise<void>) => {
      const started = performance.now();
      await run();
      app.log.info(`shutdown: ${name} in ${Math.round(performance.now() - started)} ms`);
    };
    await step('HTTP server closed', () => app.close());
    await step('job queue stopped', () => jobs.stop());
    await step('identity feed closed', () => identityFeed.close());
    await step('database closed', () => database.close());
  });

  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL';
  log.info({ url: config.appUrl, database: database.kind }, `Inventory Manager is running at ${config.appUrl} (${where})`);
}

// A boot that fails before close-with-grace is set up (migrations, the job queue) ends with one
// log line too, not with Node's printed stack.
await main().catch((err: unknown) => {
  log.fatal({ err }, 'the server could not start');
  process.exit(1);
});
