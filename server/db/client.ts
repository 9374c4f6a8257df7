/**
 * Opens the database: PostgreSQL through a `pg` pool when DATABASE_URL is set, otherwise the
 * embedded PGlite persisted in DATA_DIR (DESIGN.md §2). Both give the same drizzle API.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { schema, type Schema } from './schema';

export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A database or an open transaction: what service functions run their queries on. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The `pg` pool on PostgreSQL (for a dedicated connection), undefined on PGlite. */
  pool?: pg.Pool;
  /** Closes connections and releases the data-directory lock. */
  close(): Promise<void>;
}

/** Thrown when another process already holds the embedded data directory. */
export class DataDirLockedError extends Error {}

/**
 * Opens the embedded database in `dataDir`, taking an exclusive lock on the directory first so
 * a second process fails fast instead of corrupting it (PGlite itself locks nothing).
 * @throws DataDirLockedError when another live process holds the lock.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, { lockfilePath: join(dataDir, '.lock'), stale: 15_000, update: 5_000 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is in use by another server process. Stop it first, or set DATA_DIR to another directory.`,
      );
    }
    throw err;
  }
  const client = await PGlite.create(join(dataDir, 'pglite'));
  return wrapPglite(client, release);
}

/** Wraps an already opened PGlite (tests load a migrated snapshot this way). */
export function wrapPglite(client: PGlite, release: () => Promise<void> = async () => {}): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async close() {
      await client.close();
      await release();
    },
  };
}

/** Opens a `pg` pool on `url`; `max` connections (default 10). */
export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that dies (server restart, terminated backend) is dropped by the pool and
  // the next query opens a new one; without a listener the 'error' event would end the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    async close() {
      await pool.end();
    },
  };
}

/**
 * Runs raw SQL and returns its rows, on either driver (both answer `{ rows }`). Use drizzle's
 * query builder where it fits; this is for aggregate and set-based statements.
 */
export async function queryRows<T = Record<string, unknown>>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
