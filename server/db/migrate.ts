/**
 * Applies the committed drizzle-kit migrations in drizzle/ (docs/ARCHITECTURE.md "The parts"). Run
 * at every boot on either database and by `npm run db:migrate`; already applied migrations are
 * skipped. On PostgreSQL the schema lock (schema-lock.ts) keeps processes that start together
 * from migrating at once.
 */
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrationsFolder } from '../paths';
import type { Database } from './client';
import { withSchemaLock } from './schema-lock';

/** Brings the schema up to date. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  await withSchemaLock(database, () => migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder }));
}
