/**
 * The PostgreSQL pool survives connections the server ends (decision 010): backends terminated
 * with pg_terminate_backend, the way a restart ends them, while idle and while a transaction
 * holds them. PostgreSQL only (PGlite has no connections to lose).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isDatabaseUnavailable } from '../lib/db-errors';
import { openTestDatabase } from '../test/harness';
import { databaseUrlFor } from './pg-url';
import { queryRows, type Database } from './client';

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
