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
 * pg-boss starts, and queues are created through {@link JobQueue.createQueue}, under the schema
 * lock (db/schema-lock.ts): servers that start together on a new database otherwise fail. pg-boss
 * takes an advisory lock of its own around creating its schema, yet a second process's
 * `CREATE SCHEMA IF NOT EXISTS` still hit the first one's new schema ("duplicate key value violates
 * unique constraint pg_namespace_nspname_index"); and a queue's creation (a row in `pgboss.queue`,
 * a partition attached to `pgboss.job`) takes no lock at all, so two processes creating queues
 * deadlock on `pgboss.queue`.
 */
import PgBoss from 'pg-boss';
import type { Database } from '../db/client';
import { withSchemaLock } from '../db/schema-lock';

/** The driver calls pg-boss needs from PGlite (or the PGlite worker thread). */
interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<unknown>;
}

/** pg-boss's `db` on `database`'s own connection(s). */
function bossDb(database: Database): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  if (database.pool) {
    const pool = database.pool;
    return { executeSql: async (text, values) => pool.query(text, values as unknown[]) };
  }
  const client = (database.db as unknown as { $client: PgliteLike }).$client;
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      const result = (await client.exec(text)) as { rows?: unknown[] } | { rows?: unknown[] }[];
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: last?.rows ?? [] };
    },
  };
}

export interface JobQueueOptions {
  /** How often an idle worker looks for new jobs, in seconds (at least 0.5). */
  pollingIntervalSeconds?: number;
}

/** The started queue; `stop` waits for running jobs (up to 10 s) and stops polling. */
export interface JobQueue {
  boss: PgBoss;
  pollingIntervalSeconds: number;
  /**
   * pg-boss's `createQueue` under the schema lock: what registers a worker creates its queue
   * through this, never through `boss` (see the module's comment). Creating an existing queue
   * changes nothing.
   */
  createQueue(name: string, options: PgBoss.Queue): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss on `database` under the schema lock, creating or upgrading its schema first.
 * @throws whatever keeps pg-boss from starting (its schema cannot be created).
 */
export async function startJobQueue(database: Database, opts: JobQueueOptions = {}): Promise<JobQueue> {
  const boss = new PgBoss({
    db: bossDb(database) as never,
    // Cron schedules are not used: each company's sync schedules its own next run (sync-jobs.ts).
    schedule: false,
    supervise: true,
    migrate: true,
  });
  boss.on('error', (err) => console.error('job queue:', err));
  await withSchemaLock(database, () => boss.start());
  return {
    boss,
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2,
    createQueue: (name, options) => withSchemaLock(database, () => boss.createQueue(name, options)),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false }),
  };
}
