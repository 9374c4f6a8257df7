/**
 * Opens the database: PostgreSQL through a `pg` pool when DATABASE_URL is set, otherwise the
 * embedded PGlite persisted in DATA_DIR (docs/ARCHITECTURE.md, "The parts"). Both give the same
 * drizzle API.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { DEFAULT_DATABASE_POOL_SIZE } from '../config';
import { PgliteThread } from './pglite-thread';
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

/** Where the embedded database's files live inside DATA_DIR (the directory PGlite opens). */
export const pgliteDirOf = (dataDir: string): string => join(dataDir, 'pglite');

/**
 * Takes the exclusive lock on the data directory `dataDir` (created when missing), which a server
 * holds while it runs and the operator commands take before opening or replacing the embedded
 * database (PGlite itself locks nothing, and two processes on one directory corrupt it).
 * @returns the lock's release.
 * @throws DataDirLockedError when another live process holds the lock.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, { lockfilePath: join(dataDir, '.lock'), stale: 15_000, update: 5_000 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is in use by another server process. Stop it first, or set DATA_DIR to another directory.`,
      );
    }
    throw err;
  }
}

/**
 * Opens the embedded database in `dataDir`, taking the directory's lock first (lockDataDir) so
 * a second process fails fast instead of corrupting it. PGlite runs in a worker thread
 * (pglite-thread.ts, decision 022), so its statements do not stop this thread's HTTP work.
 * @throws DataDirLockedError when another live process holds the lock; whatever keeps PGlite
 *   from opening, the lock then released.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  const release = await lockDataDir(dataDir);
  let client: PgliteThread;
  try {
    client = await PgliteThread.open(pgliteDirOf(dataDir));
  } catch (err) {
    await release();
    throw err;
  }
  return pgliteDatabase(client, release);
}

/**
 * Wraps an already opened PGlite running on this thread (tests load a migrated snapshot this
 * way, and build the API document on an empty one): no worker to start, but every statement
 * stops this thread while it runs, so the server uses openPglite.
 */
export function wrapPglite(client: PGlite): Database {
  return pgliteDatabase(client, async () => {});
}

function pgliteDatabase(client: PGlite | PgliteThread, release: () => Promise<void>): Database {
  // PgliteThread has the part of PGlite's API that drizzle-orm/pglite calls (pglite-thread.ts).
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async close() {
      await client.close();
      await release();
    },
  };
}

/**
 * Longest wait, in ms, for one new connection to the database server to be made (TCP, TLS,
 * authentication): a server that is down refuses at once, a host that does not answer fails
 * after this (decision 010).
 */
export const CONNECT_TIMEOUT_MS = 3_000;
/**
 * Longest wait, in ms, for a free connection when every connection of the pool is busy
 * (decision 057): a burst of requests queues for the pool's connections, each held for one
 * transaction. 200 stock writes at once on Citus on a pool of 20, on a busy two-core machine,
 * took 11.5 s to answer, and with a 3 s bound 53 of their 296 requests answered 503 "The database is
 * unavailable" while the database was up. As long as one statement may run (STATEMENT_TIMEOUT_MS).
 */
export const POOL_WAIT_MS = 30_000;
/** Longest run of one statement, in ms, enforced by PostgreSQL (`statement_timeout`). */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** Idle time, in ms, before TCP keep-alive probes start checking that the server is still there. */
const KEEPALIVE_DELAY_MS = 10_000;

/**
 * A `pg` client whose connect gives up after CONNECT_TIMEOUT_MS, whatever the pool's own
 * `connectionTimeoutMillis` (which node-postgres uses both for the wait for a free connection and
 * for a connect, here POOL_WAIT_MS). Its timeout's error is given the message pg-pool gives its own
 * ("Connection terminated due to connection timeout", `cause` pg's "timeout expired"), which
 * `isDatabaseUnavailable` knows.
 */
class BoundedConnectClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
  override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
    if (!callback) return super.connect();
    super.connect(((err: Error | null) =>
      callback(err?.message === 'timeout expired' ? new Error('Connection terminated due to connection timeout', { cause: err }) : err, this)) as (err: Error) => void);
  }
}

/**
 * Opens a `pg` pool on `url`, `max` connections (default DEFAULT_DATABASE_POOL_SIZE, config.ts), that survives a
 * PostgreSQL outage (decision 010): a request during one fails within CONNECT_TIMEOUT_MS (at once
 * when the server refuses or drops connections) with an error `isDatabaseUnavailable` recognises,
 * and the next request after the server is back opens fresh connections. A request that finds
 * every connection busy waits for a free one up to POOL_WAIT_MS (decision 057), then fails the
 * same way ("timeout exceeded when trying to connect").
 *
 * Every connection has an 'error' listener, idle or checked out: a socket that breaks while a
 * transaction holds its client between two statements (a restart's "terminating connection due
 * to administrator command", then "Connection terminated unexpectedly") emits 'error' on that
 * client, and without a listener Node ends the process. `pg` marks such a client not queryable and
 * `pg-pool` destroys a client released in that state instead of handing it out again.
 */
export function openPostgres(url: string, max = DEFAULT_DATABASE_POOL_SIZE): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // node-postgres bounds the wait for a free connection by this; each connect is bounded by
    // CONNECT_TIMEOUT_MS in BoundedConnectClient.
    connectionTimeoutMillis: POOL_WAIT_MS,
    Client: BoundedConnectClient as unknown as new () => pg.ClientBase,
    // Sent at connect, so it holds for every statement; a migration that needs longer sets
    // `SET LOCAL statement_timeout` itself (the migrator runs them all in one transaction).
    statement_timeout: STATEMENT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  // The error also fails the statement running on the client, or the next one, which reports it.
  const ignore = () => {};
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
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

/** The `pg` pool behind `db` on PostgreSQL (drizzle keeps its driver's client as `$client`); null on PGlite. */
export function pgPoolOf(db: Db): pg.Pool | null {
  const client: unknown = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * Runs raw SQL and returns its rows, on either driver (both answer `{ rows }`). Use drizzle's
 * query builder where it fits; this is for aggregate and set-based statements.
 */
export async function queryRows<T = Record<string, unknown>>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();

/**
 * As {@link queryRows}, as a statement prepared once per connection under `name` (on PostgreSQL
 * the server keeps it, and after five runs its plan: no parse or plan per request). One name per
 * SQL text. Only for hot statements whose plan made for any company is a lookup by a unique key:
 * a plan kept for all companies is made for one of average size (3 or 4 properties), and a list
 * of keys filtered by `= ANY` may then scan every property of a large one (migration 0013).
 */
export async function queryPrepared<T = Record<string, unknown>>(q: Queryable, name: string, query: SQL): Promise<T[]> {
  const prepared = q._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  const result = (await prepared.execute()) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A Postgres array literal of uuids, integers or ISO dates (`{a,b}`; null as NULL): it binds as
 * one text parameter on both drivers, cast in the SQL (`${pgArray(ids)}::uuid[]`). The values
 * need no quoting, so it is only for those types, never for free text.
 */
export const pgArray = (values: readonly (string | number | null)[]): string =>
  `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;

/**
 * A Postgres array literal of free text (`{"a","b \"c\""}`), each element double-quoted with its
 * `"` and `\` escaped (the array input syntax of the PostgreSQL manual, "Arrays"): it binds as one
 * text parameter, cast in the SQL (`${pgTextArray(keys)}::text[]`). Text with NUL is refused by
 * PostgreSQL; callers pass validated text.
 */
export const pgTextArray = (values: readonly string[]): string =>
  `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
