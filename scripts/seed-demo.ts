/**
 * `npm run seed:demo [-- --reset]`: creates the demo operator (Seaside Stays, 15 properties,
 * 2 garages, 31 supplies, 90 days of history) on the configured database and prints how to
 * sign in. Uses the server's variables: DATABASE_URL for PostgreSQL, otherwise the embedded
 * database in DATA_DIR, which must not be in use by a running server.
 *
 * Exit codes: 0 done (or the demo user already exists), 1 bad configuration, a locked data
 * directory or a failed seed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { DataDirLockedError, openPglite, openPostgres, type Database } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { seedDemo } from './demo/seed';

const usage = `Usage: npm run seed:demo [-- --reset] [-- --email <address> --password <password>]

  --reset      delete the demo user and its company first, then seed again
  --email      sign-in email of the demo operator
  --password   its password (at least 6 characters)`;

/** The secret a server on this data directory would use, when one was generated already. */
function embeddedSecret(config: Config): string {
  const file = join(resolve(config.dataDir), 'app-secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : randomBytes(32).toString('base64url');
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: { reset: { type: 'boolean', default: false }, email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    return 1;
  }
  if (args.help) {
    console.log(usage);
    return 0;
  }

  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }

  let database: Database;
  try {
    database = config.databaseUrl ? openPostgres(config.databaseUrl, 2) : await openPglite(resolve(config.dataDir));
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`${err.message}\nThe demo data is written to the same database: stop the server, seed, then start it again.`);
      return 1;
    }
    throw err;
  }

  try {
    const where = database.kind === 'pglite' ? `the embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL (DATABASE_URL)';
    console.log(`Seeding demo data into ${where}…`);
    await runMigrations(database);
    const summary = await seedDemo(database, {
      email: args.email,
      password: args.password,
      reset: args.reset,
      config: { ...config, appSecret: config.appSecret ?? embeddedSecret(config) },
      log: (line) => console.log(`  ${line}`),
    });
    if (summary.status === 'exists') {
      console.log(`The demo user ${summary.email} already exists; nothing was changed. Run with -- --reset to recreate it.`);
      return 0;
    }
    console.log(`
Done in ${(summary.elapsedMs / 1000).toFixed(1)} s:
  ${summary.units} properties, ${summary.garages} garages, ${summary.items} items, ${summary.ledgerRows} ledger rows
  property stock rows low: ${summary.lowUnitRows}, critical: ${summary.criticalUnitRows}; garage alerts: ${summary.garageAlerts}
  usage over 90 days: $${summary.usageCost.toFixed(2)}

Sign in at ${config.appUrl} with
  email:    ${summary.email}
  password: ${summary.password}`);
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
