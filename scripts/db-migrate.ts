/**
 * `npm run db:migrate`: applies the committed migrations (drizzle/) to the database the server's
 * variables name, with the code a server runs at boot (server/db/migrate.ts, under the schema lock
 * on PostgreSQL), makes or upgrades the job queue's schema `pgboss` as a booting server does
 * (server/jobs/queue.ts `installJobSchema`; on Citus it stays on the coordinator), and exits
 * (docs/operations.md "Migrations"). DATABASE_URL: PostgreSQL, while
 * servers run or not; otherwise the embedded database in DATA_DIR, which no server may be using.
 *
 * Exit codes: 0 up to date; 1 bad configuration, a data directory in use, or a failed migration
 * (a migration runs in one transaction with the others of the run: none of them is kept); 2 bad
 * arguments.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { DataDirLockedError, openPglite, openPostgres, queryRows, type Database } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { installJobSchema, JOB_SCHEMA, JOB_SCHEMA_VERSION } from '../server/jobs/queue';
import { latestMigration } from '../server/modules/health/service';

const usage = `Usage: npm run db:migrate

Applies the migrations this version ships with to the database the server uses, and makes or
upgrades the job queue's schema, then exits:
DATABASE_URL (PostgreSQL; servers may be running: migrations take the lock a booting server takes)
or else the embedded database in DATA_DIR (stop the server first). A server also migrates at boot.

Exit codes: 0 up to date; 1 refused or failed (bad configuration, a data directory in use, a failed migration); 2 bad arguments.`;

/** Migrations recorded by drizzle's migrator in `database` (0 before the first). */
async function appliedCount(database: Database): Promise<number> {
  const [table] = await queryRows<{ present: boolean }>(database.db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table?.present) return 0;
  const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0);
}

async function main(): Promise<number> {
  try {
    if (parseArgs({ options: { help: { type: 'boolean', short: 'h' } } }).values.help) {
      console.log(usage);
      return 0;
    }
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    return 2;
  }

  let config: Config;
  let database: Database;
  try {
    config = loadConfig();
    database = config.databaseUrl ? openPostgres(config.databaseUrl, 2) : await openPglite(resolve(config.dataDir));
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirLockedError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  try {
    const where = database.kind === 'pglite' ? `the embedded database in ${resolve(config.dataDir)}` : 'PostgreSQL (DATABASE_URL)';
    const before = await appliedCount(database);
    await runMigrations(database);
    const applied = (await appliedCount(database)) - before;
    const latest = latestMigration().tag;
    console.log(applied > 0 ? `Applied ${applied} migrations to ${where}; it is at ${latest}.` : `Up to date: ${where} (${latest}).`);
    const jobs = await installJobSchema(database);
    console.log(
      jobs === 'current'
        ? `The job queue's schema ${JOB_SCHEMA} is up to date (version ${JOB_SCHEMA_VERSION}).`
        : `The job queue's schema ${JOB_SCHEMA} was ${jobs} (version ${JOB_SCHEMA_VERSION}).`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
