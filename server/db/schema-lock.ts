/**
 * The schema lock (docs/decisions/040-operations-commands.md): one PostgreSQL advisory lock that
 * every change of the database's shape made by a booting server or an operator command holds, so
 * several processes starting at once on one database take turns instead of running DDL
 * concurrently. Held by the drizzle migrations (migrate.ts: drizzle's migrator takes no lock of
 * its own) and by the creation of pg-boss's queues (jobs/queue.ts: pg-boss's `create_queue`
 * inserts the queue's row and attaches its partition without a lock, and two processes creating
 * queues at once deadlock on `pgboss.queue`).
 */
import type { Database } from './client';

/**
 * The lock's key, in the one-`bigint` key space of `pg_advisory_lock`. The number the migrations
 * have always locked with, so a server of an earlier version booting during a rolling deploy
 * waits for this one. Keys of the application's transaction locks (`hashtext` of a user id, in
 * the same space) are spread over all 2^32 int4 values; hitting this one costs a wait, no error.
 */
export const SCHEMA_LOCK_KEY = 727274;

/**
 * Runs `fn` while holding the schema lock, waiting for it as long as another process holds it
 * (a first boot's migrations take longer than the pool's statement timeout). The lock is
 * session-level on a dedicated connection of the pool, so `fn` may use the pool freely; that
 * connection is closed afterwards rather than returned with its timeout lifted, and its closing
 * releases the lock even when the unlock could not be sent. On the embedded database `fn` runs at
 * once: one process holds its data directory (client.ts).
 * @throws whatever `fn` throws; an error of the pool when no connection can be had.
 */
export async function withSchemaLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (!database.pool) return fn();
  const holder = await database.pool.connect();
  try {
    await holder.query('set statement_timeout = 0');
    await holder.query('select pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
    try {
      return await fn();
    } finally {
      await holder.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]).catch(() => {});
    }
  } finally {
    holder.release(true);
  }
}
