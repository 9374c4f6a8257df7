/**
 * Applies the committed drizzle-kit migrations in drizzle/ (docs/ARCHITECTURE.md "The parts"). Run
 * at every boot on either database; already applied migrations are skipped. On PostgreSQL an
 * advisory lock keeps two booting processes from migrating at once.
 */
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrationsFolder } from '../paths';
import type { Database } from './client';

/** Brings the schema up to date. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // A session-level advisory lock held on a dedicated connection while the pool migrates.
  const lock = await database.pool!.connect();
  try {
    await lock.query('select pg_advisory_lock(727274)');
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  } finally {
    await lock.query('select pg_advisory_unlock(727274)').catch(() => {});
    lock.release();
  }
}
