/**
 * The PostgreSQL pool survives connections the server ends (decision 010): backends terminated
 * with pg_terminate_backend, the way a restart ends them, while idle and while a transaction
 * holds them. PostgreSQL only (PGlite has no connections to lose). And its two waits apart
 * (decision 057): a request that finds every connection busy waits longer than a connect may
 * take, while a connect to a host that never answers still fails after CONNECT_TIMEOUT_MS.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { useSilentHost } from '../test/silent-host';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isDatabaseUnavailable } from '../lib/db-errors';
import { openTestDatabase } from '../test/harness';
import { databaseUrlFor } from './pg-url';
import { CONNECT_TIMEOUT_MS, openPostgres, POOL_WAIT_MS, queryRows, type Database } from './client';

const templateUrl = inject('pgTemplateUrl');

describe.skipIf(!templateUrl)('pg pool when PostgreSQL ends its connections', () => {
  let database: Database;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    admin = new pg.Client({ connectionString: databaseUrlFor(templateUrl!, 'postgres') });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await database.close();
  });

  const backendPid = async () => (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid`))[0]!.pid;
  /** Terminates `pids` and waits until PostgreSQL has ended them. */
  async function terminate(pids: number[]): Promise<void> {
    await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [pids]);
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where pid = any($1::int[])', [pids]);
      if (rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('backends still alive');
  }
  /** Every pooled connection's backend pid: `n` queries at once, each on its own connection. */
  async function poolPids(n: number): Promise<number[]> {
    const pids = await Promise.all(
      Array.from({ length: n }, () => queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)),
    );
    return [...new Set(pids.map((rows) => rows[0]!.pid))];
  }

  it('a connection ended while a transaction holds it fails that transaction as unavailable; the process and the pool carry on', async () => {
    // An 'error' event nobody listens to is thrown from the socket's callback: the process's end.
    const uncaught: unknown[] = [];
    const record = (err: unknown) => void uncaught.push(err);
    process.prependListener('uncaughtException', record);
    let heldPid = 0;
    const failed = await database.db
      .transaction(async (tx) => {
        heldPid = (await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]!.pid;
        // Between two statements the client has no query running: the socket's end reaches it as
        // an 'error' event (which ended the process before decision 010).
        await terminate([heldPid]);
        await new Promise((r) => setTimeout(r, 50));
        await tx.execute(sql`select 1`);
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    await new Promise((r) => setTimeout(r, 50));
    process.removeListener('uncaughtException', record);
    expect(uncaught).toEqual([]);
    expect(failed).not.toBeNull();
    expect(isDatabaseUnavailable(failed)).toBe(true);
    // The broken client is never handed out again: every connection of a full pool works.
    const pids = await poolPids(20);
    expect(pids).not.toContain(heldPid);
    expect(pids.length).toBeGreaterThan(1);
  });

  it('idle connections ended all at once are replaced by the next queries', async () => {
    const before = await poolPids(10);
    await terminate(before);
    await new Promise((r) => setTimeout(r, 50));
    const after = await poolPids(10);
    expect(after.some((pid) => before.includes(pid))).toBe(false);
    expect(await backendPid()).toBeGreaterThan(0);
  });
});

describe.skipIf(!templateUrl)('waiting for a connection of a busy pool', () => {
  it('waits for a free connection longer than a connect may take, up to POOL_WAIT_MS', async () => {
    const database = await openTestDatabase('postgres');
    const pool = openPostgres(database.pool!.options.connectionString!, 1);
    try {
      const held = await pool.pool!.connect();
      const started = performance.now();
      const waiting = queryRows<{ one: number }>(pool.db, sql`select 1 as one`);
      const holdMs = CONNECT_TIMEOUT_MS + 1_000;
      setTimeout(() => held.release(), holdMs);
      expect(await waiting).toEqual([{ one: 1 }]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(holdMs - 50);
      expect(POOL_WAIT_MS).toBeGreaterThan(holdMs);
    } finally {
      await pool.close();
      await database.close();
    }
  }, 20_000);
});

describe('connecting to a database host that never answers', () => {
  const silent = useSilentHost();

  it('fails after CONNECT_TIMEOUT_MS, not POOL_WAIT_MS, as the database being unavailable', async () => {
    const database = openPostgres(silent.url(), 2);
    try {
      const started = performance.now();
      const failed = await queryRows(database.db, sql`select 1`).then(
        () => null,
        (err: unknown) => err,
      );
      const took = performance.now() - started;
      expect(isDatabaseUnavailable(failed), String(failed)).toBe(true);
      expect(took).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(CONNECT_TIMEOUT_MS + 1_000);
    } finally {
      await database.close();
    }
  }, 20_000);
});
