/**
 * Background jobs (docs/decisions/033-job-queue.md): pg-boss on the product's own database, on
 * PostgreSQL and on the embedded PGlite alike. pg-boss keeps its jobs in its own schema
 * (`pgboss`), so a job survives a restart; a job is fetched with FOR UPDATE SKIP LOCKED, so
 * several server processes on one PostgreSQL database run it once; a failed job is retried with
 * backoff, and its last outcome (output or error) stays on its row.
 *
 * pg-boss is given our own connection as its `db` (no second pool, and on PGlite the one
 * connection there is): statements with parameters go through the driver's `query`, texts of
 * several statements (its schema) through PGlite's `exec` or the pool's simple protocol.
 *
 * The schema `pgboss` is made by {@link installJobSchema}, not by pg-boss's own start
 * (docs/decisions/056-job-queue-on-citus.md): the same SQL pg-boss would run (its construction
 * or migration plan), in our own transaction under the schema lock (db/schema-lock.ts), and on a
 * Citus coordinator with DDL propagation off, so the schema stays on the coordinator. pg-boss then
 * starts with `migrate: false` and only checks that its schema is at its version. Servers that
 * start together on a new database otherwise fail: pg-boss takes an advisory lock of its own around
 * creating its schema, yet a second process's `CREATE SCHEMA IF NOT EXISTS` still hit the first
 * one's new schema ("duplicate key value violates unique constraint pg_namespace_nspname_index");
 * and on Citus the coordinator passed pg-boss's one message of many statements on to the workers,
 * which refused it ("operation is not allowed on this node").
 *
 * Queues are created through {@link JobQueue.createQueue}, under the schema lock too: a queue's
 * creation (a row in `pgboss.queue`, a partition attached to `pgboss.job`) takes no lock at all,
 * so two processes creating queues deadlock on `pgboss.queue`.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client';
import { withSchemaLock } from '../db/schema-lock';
import { isCitusDatabase } from '../db/tenant-tx';

/** The schema pg-boss keeps its jobs in (its default). */
export const JOB_SCHEMA = 'pgboss';

/**
 * The schema version this pg-boss release works with (`version.json` of the package, 24 for
 * pg-boss 10.4.2): `start` with `migrate: false` refuses a schema at any other version.
 */
export const JOB_SCHEMA_VERSION: number = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }).schema;

/** What {@link installJobSchema} found and did. */
export type JobSchemaChange = 'created' | 'migrated' | 'current';

/** The driver calls pg-boss needs from PGlite (or the PGlite worker thread). */
interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<unknown>;
}

/**
 * What the queue has under way: pg-boss's statements in flight and job handlers running.
 * pg-boss's graceful stop waits only for jobs already handed to a handler; a fetch sent just
 * before the stop can still come back with a job, whose handler then ran on a database the
 * server had closed, and whose failure, recorded on that closed database, rejected with nobody
 * listening: the server exited 1 on SIGTERM.
 */
class Activity {
  private busy = 0;

  /** `work()`, counted until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    try {
      return await work();
    } finally {
      this.busy--;
    }
  }

  /**
   * Resolves at the first timer tick with nothing under way, or after `timeoutMs`. A fetch's
   * answer hands its jobs to their handler within the same turn of the event loop, so a timer
   * tick never falls between the two.
   */
  async settled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    do await new Promise((resolve) => setTimeout(resolve, 20));
    while (this.busy > 0 && Date.now() < deadline);
  }
}

/** pg-boss's `db` on `database`'s own connection(s), its statements counted in `activity`. */
function bossDb(database: Database, activity: Activity): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  if (database.pool) {
    const pool = database.pool;
    return { executeSql: (text, values) => activity.track(() => pool.query(text, values as unknown[])) };
  }
  const client = (database.db as unknown as { $client: PgliteLike }).$client;
  return {
    executeSql: (text, values) =>
      activity.track(async () => {
        if (values && values.length > 0) return client.query(text, values);
        const result = (await client.exec(text)) as { rows?: unknown[] } | { rows?: unknown[] }[];
        const last = Array.isArray(result) ? result.at(-1) : result;
        return { rows: last?.rows ?? [] };
      }),
  };
}

/**
 * pg-boss's SQL that brings its schema from `version` (null: no schema yet) to
 * JOB_SCHEMA_VERSION: its construction plan or its migration plan, each one text of many
 * statements wrapped in `BEGIN; … COMMIT;` (pg-boss's `plans.locked`); null when it is there.
 * @throws Error when the schema is newer than this release's (a later release installed it).
 */
function jobSchemaPlan(version: number | null): { text: string; change: JobSchemaChange } | null {
  if (version === null) return { text: PgBoss.getConstructionPlans(JOB_SCHEMA), change: 'created' };
  if (version === JOB_SCHEMA_VERSION) return null;
  if (version > JOB_SCHEMA_VERSION) {
    throw new Error(`The job queue's schema ${JOB_SCHEMA} is at version ${version}, newer than this release's ${JOB_SCHEMA_VERSION}: run the release that installed it.`);
  }
  // pg-boss's types say string; its code compares the number (migrationStore.js `migrate`).
  return { text: PgBoss.getMigrationPlans(JOB_SCHEMA, version as unknown as string), change: 'migrated' };
}

/**
 * The statements of pg-boss's plan `text` without its own `BEGIN;` and `COMMIT;`, to run inside
 * a transaction of ours (whose settings come first).
 * @throws Error when the plan is not wrapped that way (a pg-boss release this code was not checked with).
 */
function planStatements(text: string): string {
  const body = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/.exec(text)?.[1];
  if (body === undefined) throw new Error(`pg-boss's schema plan is not one "BEGIN; … COMMIT;" text: check installJobSchema against this pg-boss release.`);
  return body;
}

/** The version recorded in `pgboss.version`, or null when the schema is not there, read by `query`. */
async function installedJobSchemaVersion(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<number | null> {
  const [table] = (await query(`select to_regclass('${JOB_SCHEMA}.version') is not null as present`)).rows as { present: boolean }[];
  if (!table?.present) return null;
  const [row] = (await query(`select version::int as version from ${JOB_SCHEMA}.version`)).rows as { version: number }[];
  return row ? Number(row.version) : null;
}

/**
 * Creates pg-boss's schema `pgboss` in `database`, or migrates it to JOB_SCHEMA_VERSION, with
 * pg-boss's own SQL (its construction or migration plan), so that pg-boss can then start with
 * `migrate: false`. Run at boot by {@link startJobQueue} and by `npm run db:migrate`; a schema
 * at this version is left alone.
 *
 * On PostgreSQL: under the schema lock (servers starting together take turns), in one
 * transaction on a connection of the pool, without a statement timeout. On a database with the
 * Citus extension (a coordinator), the transaction first sets `citus.enable_ddl_propagation` and
 * `citus.enable_schema_based_sharding` off (`SET LOCAL`, each statement alone, decision 042
 * item 10): the schema and its tables stay on the coordinator (docs/operations.md "Moving to
 * Citus", decision 056), where pg-boss's own start had the coordinator pass its one text of many
 * statements to the workers, which refused it. On PGlite: the plan as pg-boss runs it (one
 * process holds the data directory).
 * @returns 'created', 'migrated', or 'current' when nothing was to be done.
 * @throws the database's error (nothing of the plan is kept: one transaction); Error when the
 *   schema is newer than this release's, or pg-boss's plan has a shape this code does not know.
 */
export async function installJobSchema(database: Database): Promise<JobSchemaChange> {
  if (!database.pool) {
    const client = (database.db as unknown as { $client: PgliteLike }).$client;
    const plan = jobSchemaPlan(await installedJobSchemaVersion((text) => client.query(text)));
    if (!plan) return 'current';
    await client.exec(plan.text);
    return plan.change;
  }
  const pool = database.pool;
  return withSchemaLock(database, async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const plan = jobSchemaPlan(await installedJobSchemaVersion((text) => client.query(text)));
      if (!plan) return 'current';
      const statements = planStatements(plan.text);
      await client.query('begin');
      try {
        await client.query('set local statement_timeout = 0');
        if (await isCitusDatabase(client)) await keepDdlOnCoordinator(client);
        await client.query(statements);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw err;
      }
      return plan.change;
    } finally {
      client.release(broken);
    }
  });
}

/**
 * Turns Citus's propagation of DDL to the workers off for the rest of `client`'s transaction, and
 * schema-based sharding with it (where this Citus has the setting, 12.0 and later), so that a
 * schema created now is an ordinary schema of the coordinator, not a distributed one.
 */
async function keepDdlOnCoordinator(client: pg.PoolClient): Promise<void> {
  await client.query('set local citus.enable_ddl_propagation = off');
  const { rows } = await client.query<{ known: boolean }>(`select current_setting('citus.enable_schema_based_sharding', true) is not null as known`);
  if (rows[0]?.known) await client.query('set local citus.enable_schema_based_sharding = off');
}

/** How long `stop` waits for running jobs, in milliseconds. */
const STOP_TIMEOUT_MS = 10_000;

export interface JobQueueOptions {
  /** How often an idle worker looks for new jobs, in seconds (at least 0.5). */
  pollingIntervalSeconds?: number;
}

/**
 * The started queue; `stop` stops polling and waits (up to 10 s) for running jobs and for the
 * fetches already sent, with the jobs they bring.
 */
export interface JobQueue {
  boss: PgBoss;
  pollingIntervalSeconds: number;
  /**
   * pg-boss's `createQueue` under the schema lock: what registers a worker creates its queue
   * through this, never through `boss` (see the module's comment). Creating an existing queue
   * changes nothing.
   */
  createQueue(name: string, options: PgBoss.Queue): Promise<void>;
  /**
   * pg-boss's `work`, each run of `handler` counted so that `stop` waits for it: what registers
   * a worker does it through this, never through `boss`.
   */
  work<T extends object>(name: string, options: PgBoss.WorkOptions, handler: (jobs: PgBoss.Job<T>[]) => Promise<unknown>): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss on `database`, creating or upgrading its schema first ({@link installJobSchema},
 * under the schema lock); pg-boss itself creates nothing (`migrate: false`), it checks that the
 * schema is at its version.
 * @throws whatever keeps the schema from being made (installJobSchema) or pg-boss from starting.
 */
export async function startJobQueue(database: Database, opts: JobQueueOptions = {}): Promise<JobQueue> {
  await installJobSchema(database);
  const activity = new Activity();
  const boss = new PgBoss({
    db: bossDb(database, activity) as never,
    schema: JOB_SCHEMA,
    // Cron schedules are not used: each company's sync schedules its own next run (sync-jobs.ts).
    schedule: false,
    supervise: true,
    // installJobSchema made the schema; pg-boss only checks its version.
    migrate: false,
  });
  boss.on('error', (err) => console.error('job queue:', err));
  await boss.start();
  return {
    boss,
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2,
    createQueue: (name, options) => withSchemaLock(database, () => boss.createQueue(name, options)),
    work: (name, options, handler) => boss.work(name, options, (jobs) => activity.track(() => handler(jobs as never))),
    async stop() {
      const started = Date.now();
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS, close: false });
      await activity.settled(STOP_TIMEOUT_MS - (Date.now() - started));
    },
  };
}
