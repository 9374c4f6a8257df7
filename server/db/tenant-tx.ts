/**
 * Tenant transactions: the only way services touch tenant data. Each runs as the non-superuser
 * role `inventory_app` with `app.tenant_id` set, so row-level security filters every row even if
 * a query forgets its tenant filter (docs/ARCHITECTURE.md "How a request flows", migration
 * 0001_rls.sql).
 *
 * A transaction that loses a race is run again (docs/decisions/009-ledger-lock-order.md):
 * PostgreSQL aborts one side of a deadlock (40P01) or of a serialization conflict (40001), and a
 * row that another transaction deleted between our read and our write surfaces as a foreign-key
 * violation (23503) or as `ConcurrentChange`. Each of these rolled back everything the
 * transaction wrote, so running `fn` again from the start is safe and answers as if the request
 * had arrived after the other one. After `MAX_ATTEMPTS` the request answers 503 UNAVAILABLE,
 * never 500.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { AppError } from '../lib/errors';
import { pgPoolOf, type Db, type Tx } from './client';
import { schema } from './schema';
import { sqlStateOf } from './sql-state';

export const APP_ROLE = 'inventory_app';

/** Attempts of one tenant transaction before it answers 503. */
export const MAX_ATTEMPTS = 4;

/** SQLSTATEs after which the whole transaction is run again: deadlock, serialization failure, FK race. */
const RETRYABLE = new Set(['40P01', '40001', '23503']);

/**
 * Thrown inside a tenant transaction when a row it had just seen is gone (deleted by a
 * concurrent transaction): the transaction is rolled back and run again.
 */
export class ConcurrentChange extends Error {}

/** True when `err` means the transaction lost a race and may simply be run again. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof ConcurrentChange) return true;
  const state = sqlStateOf(err);
  return state !== undefined && RETRYABLE.has(state);
}

/**
 * Runs `fn` in one transaction scoped to `tenantId`; commits when it resolves, rolls back when it
 * throws. A transaction that lost a race (see the module comment) is run again, up to
 * MAX_ATTEMPTS times with a short random pause, so `fn` must have no effect outside the
 * transaction. The tenant id must come from the session, never from request input.
 * @throws AppError UNAVAILABLE when every attempt lost its race; otherwise whatever `fn` throws.
 */
export async function withTenant<T>(db: Db, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const pool = pgPoolOf(db);
      if (pool) return await pooledTenantTransaction(pool, tenantId, fn);
      return await db.transaction(async (tx) => {
        await enterTenantScope(tx, tenantId);
        return fn(tx);
      });
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (attempt >= MAX_ATTEMPTS) {
        throw new AppError('UNAVAILABLE', 'Too many changes to the same stock at once. Nothing was saved; please try again.');
      }
      // Random pauses keep the transactions that collided from colliding again in step.
      await sleep(Math.random() * 10 * attempt);
    }
  }
}

/** A UUID in its text form: the only value a transaction setting is ever set to. */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The statement that sets the transaction setting `name` to `uuid` until the transaction ends.
 * `SET LOCAL`, not `set_config()`: a Citus coordinator passes `SET LOCAL` on to the workers that
 * run the transaction's queries (with `citus.propagate_set_commands = 'local'`,
 * server/db/distribution.ts), and nothing set by a function call. `SET` takes no parameters, so
 * the value is written into the statement: a UUID only.
 * @throws Error when `uuid` is not a UUID (never from request input: ids come from the session or
 *   from rows already read).
 */
export function setLocalUuid(name: 'app.tenant_id' | 'app.scan_id', uuid: string): string {
  if (!UUID_TEXT.test(uuid)) throw new Error(`${name} must be a UUID`);
  return `set local ${name} = '${uuid}'`;
}

/** The statements that scope an open transaction to `tenantId` under the application role. */
function tenantScope(tenantId: string): string {
  return `${setLocalUuid('app.tenant_id', tenantId)}; set local role ${APP_ROLE}`;
}

/** Switches the open transaction `tx` to the application role scoped to `tenantId`, until it ends. */
export async function enterTenantScope(tx: Tx, tenantId: string): Promise<void> {
  for (const statement of tenantScope(tenantId).split('; ')) await tx.execute(sql.raw(statement));
}

/** A drizzle instance per pooled connection, made once: the pool keeps its connections. */
const boundTo = new WeakMap<pg.PoolClient, Tx>();

function drizzleOn(client: pg.PoolClient): Tx {
  let tx = boundTo.get(client);
  if (!tx) {
    // Statements run on this one connection, inside the transaction opened on it below. The
    // services never open savepoints or call `rollback()` on it, the two parts of a drizzle
    // transaction object this lacks.
    tx = drizzle(client, { schema }) as unknown as Tx;
    boundTo.set(client, tx);
  }
  return tx;
}

/** Whether the database `client` is connected to has the Citus extension (a coordinator or a worker). */
export async function isCitusDatabase(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ citus: boolean }>(`select exists (select 1 from pg_extension where extname = 'citus') as citus`);
  return rows[0]!.citus;
}

/**
 * Whether the database behind `pool` is a Citus coordinator, asked once per pool. A coordinator
 * passes a `SET LOCAL` on to the workers as the text of the whole message it came in, so there
 * BEGIN and each setting must go alone (a worker given `begin; set local …` inside its own
 * transaction fails: "the backend has already been assigned a transaction id").
 */
const citusPools = new WeakMap<pg.Pool, Promise<boolean>>();
function isCitus(pool: pg.Pool, client: pg.PoolClient): Promise<boolean> {
  let known = citusPools.get(pool);
  if (!known) {
    known = isCitusDatabase(client);
    citusPools.set(pool, known);
    known.catch(() => citusPools.delete(pool));
  }
  return known;
}

/**
 * One tenant transaction on a connection of `pool`, opened and scoped in one round trip on
 * PostgreSQL: BEGIN and the scope go together as one simple-protocol message, where drizzle's
 * `transaction` sends them one at a time (on Citus, one at a time too: isCitus).
 * A connection whose ROLLBACK fails is broken and is destroyed instead of returned to the pool.
 */
async function pooledTenantTransaction<T>(pool: pg.Pool, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    if (await isCitus(pool, client)) {
      await client.query('begin');
      for (const statement of tenantScope(tenantId).split('; ')) await client.query(statement);
    } else {
      await client.query(`begin; ${tenantScope(tenantId)}`);
    }
    const result = await fn(drizzleOn(client));
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
