/**
 * Boot: parse config -> open the database -> migrate -> listen -> graceful shutdown on
 * SIGINT/SIGTERM (docs/ARCHITECTURE.md "The parts"). Without DATABASE_URL the embedded PGlite in
 * DATA_DIR is used and a random APP_SECRET is generated once and kept there.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { DataDirLockedError, openPglite, openPostgres, type Database } from './db/client';
import { runMigrations } from './db/migrate';
import { openIdentityCache } from './modules/auth/identity-cache';
import { webRoot } from './paths';

/** Reads DATA_DIR/app-secret, creating it (0600) with 48 random bytes on first boot. */
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  let database: Database;
  try {
    database = config.databaseUrl ? openPostgres(config.databaseUrl) : await openPglite(resolve(config.dataDir));
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  await runMigrations(database);

  const appSecret = config.appSecret ?? embeddedSecret(resolve(config.dataDir));
  const identityFeed = openIdentityCache(database);
  const app = await buildApp({
    config: { ...config, appSecret },
    db: database.db,
    identities: identityFeed.cache,
    logger: true,
    webRoot,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await identityFeed.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL';
  console.log(`Inventory Manager is running at ${config.appUrl} (${where})`);
}

await main();
