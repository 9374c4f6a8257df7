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
 * Starts pg-boss on `database` under the schema lock, creating or upgrading its schema first.
 * @throws whatever keeps pg-boss from starting (its schema cannot be created).
 */
export async function startJobQueue(database: Database, opts: JobQueueOptions = {}): Promise<JobQueue> {
  const activity = new Activity();
  const boss = new PgBoss({
    db: bossDb(database, activity) as never,
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
    work: (name, options, handler) => boss.work(name, options, (jobs) => activity.track(() => handler(jobs as never))),
    async stop() {
      const started = Date.now();
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS, close: false });
      await activity.settled(STOP_TIMEOUT_MS - (Date.now() - started));
    },
  };
}
