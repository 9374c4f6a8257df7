/**
 * The embedded database in its worker thread (pglite-thread.ts, decision 022), as the server
 * opens it (openPglite): migrations, drizzle queries and their types, transactions and their
 * order, PostgreSQL errors with their SQLSTATE, close, a crashed worker, and HTTP answering while
 * a statement runs. The API suites use PGlite on the test's own thread (harness.ts), which loads
 * a migrated snapshot faster; what they test does not depend on the thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { isDatabaseUnavailable } from '../lib/db-errors';
import { TEST_APP_SECRET } from '../test/harness';
import { openPglite, queryRows, wrapPglite, type Database } from './client';
import { runMigrations } from './migrate';
import { databaseErrorOf } from './sql-state';
import { withTenant } from './tenant-tx';

/** Every worker thread started in this file, newest last (to end one as a crash would). */
const workers = vi.hoisted(() => [] as NodeWorker[]);
vi.mock('node:worker_threads', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:worker_threads')>();
  class TrackedWorker extends original.Worker {
    constructor(...args: ConstructorParameters<typeof original.Worker>) {
      super(...args);
      workers.push(this);
    }
  }
  return { ...original, Worker: TrackedWorker };
});

/** A statement whose values exercise PGlite's parsers and drizzle's own (dates stay text). */
const typed = sql`select 1::int4 as i, 2::int8 as big, 1.50::numeric(12,2) as money, true as yes, null::text as nothing,
  '2024-03-01'::date as day, '2024-03-01 10:00:00+00'::timestamptz as at, array['a','b'] as list,
  array['2024-03-01'::date] as days, '{"a":[1]}'::jsonb as doc, 'x'::bytea as raw`;

describe('the embedded database in a worker thread', () => {
  let dir: string;
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inv-thread-'));
    database = await openPglite(dir);
    await runMigrations(database);
    await database.db.execute(sql`create table thread_log (seq serial primary key, label text not null unique)`);
    app = await buildApp({
      config: { ...loadConfig({ APP_URL: 'http://localhost:3000' }), appSecret: TEST_APP_SECRET },
      db: database.db,
      mailer: { send: async () => {} },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const labels = async () => (await queryRows<{ label: string }>(database.db, sql`select label from thread_log order by seq`)).map((r) => r.label);

  it('applies the migrations and answers drizzle queries with the values PGlite gives in-process', async () => {
    const [migrations] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(migrations!.n).toBeGreaterThan(10);
    const here = wrapPglite(await PGlite.create());
    try {
      const expected = await queryRows(here.db, typed);
      expect(await queryRows(database.db, typed)).toEqual(expected);
      expect(expected[0]).toMatchObject({ day: '2024-03-01', list: ['a', 'b'], days: '{2024-03-01}', doc: { a: [1] } });
    } finally {
      await here.close();
    }
  });

  it('commits a transaction that resolves and rolls back one that throws (or a savepoint), rethrowing its error', async () => {
    await database.db.transaction((tx) => tx.execute(sql`insert into thread_log (label) values ('kept')`));
    const failure = new Error('changed my mind');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_log (label) values ('dropped')`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A nested transaction (a savepoint) rolls back alone.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_log (label) values ('outer')`);
      await tx.transaction((inner) => inner.execute(sql`insert into thread_log (label) values ('inner')`).then(() => inner.rollback())).catch(() => {});
    });
    expect(await labels()).toEqual(['kept', 'outer']);
    await database.db.execute(sql`truncate thread_log`);
  });

  it('runs transactions one at a time, and work asked for meanwhile after it in arrival order', async () => {
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const first = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_log (label) values ('first-begin')`);
      opened();
      await sleep(300); // the others are asked for now, and must wait
      await tx.execute(sql`insert into thread_log (label) values ('first-end')`);
    });
    await isOpen;
    const second = database.db.transaction(async (tx) => {
      // Sees the first one's rows: it began after the first committed.
      const [n] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from thread_log`);
      await tx.execute(sql`insert into thread_log (label) values (${`second-saw-${n!.n}`})`);
    });
    // Pauses between them, so each reaches the worker before the next is asked for (drizzle's
    // layers take a few turns of the event loop more for a statement than for a transaction).
    await sleep(20);
    const alone = queryRows(database.db, sql`insert into thread_log (label) values ('alone')`);
    await sleep(20);
    const third = database.db.transaction((tx) => tx.execute(sql`insert into thread_log (label) values ('third')`));
    await Promise.all([first, second, alone, third]);
    expect(await labels()).toEqual(['first-begin', 'first-end', 'second-saw-2', 'alone', 'third']);
    await database.db.execute(sql`truncate thread_log`);
  });

  it('fails a statement with the PostgreSQL error, its SQLSTATE and constraint, and stays usable', async () => {
    await database.db.execute(sql`insert into thread_log (label) values ('once')`);
    const err = await database.db.execute(sql`insert into thread_log (label) values (${'once'})`).catch((e: unknown) => e);
    expect(databaseErrorOf(err)).toEqual({ code: '23505', constraint: 'thread_log_label_key' });
    expect((err as Error).cause).toMatchObject({ severity: 'ERROR', detail: 'Key (label)=(once) already exists.', params: ['once'] });
    expect(isDatabaseUnavailable(err)).toBe(false);
    // In a tenant transaction: rolled back, not retried (not a race), and the next one works.
    const inTx = await withTenant(database.db, '00000000-0000-0000-0000-000000000001', (tx) => tx.execute(sql`select 1/0`)).catch((e: unknown) => e);
    expect(databaseErrorOf(inTx)?.code).toBe('22012');
    expect(await labels()).toEqual(['once']);
    await database.db.execute(sql`truncate thread_log`);
  });

  it('fails the requests under way with "unavailable" when the worker dies, then starts a new one', async () => {
    const running = queryRows(database.db, sql`select pg_sleep(5)`).catch((e: unknown) => e);
    await sleep(200);
    await workers.at(-1)!.terminate();
    const err = await running;
    expect(isDatabaseUnavailable(err)).toBe(true);
    const [row] = await queryRows<{ ok: number }>(database.db, sql`select 1 as ok`);
    expect(row).toEqual({ ok: 1 });
  });

  it('answers GET /api/health while a long statement runs', async () => {
    let finished = false;
    const long = queryRows(database.db, sql`select pg_sleep(2)`).then(() => (finished = true));
    await sleep(100);
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(finished).toBe(false);
    await long;
  });

  // Last: it closes the file's database, and leaves it reopened for afterAll.
  it('closes after the work sent before, releases the directory and refuses work afterwards as unavailable', async () => {
    await database.db.execute(sql`insert into thread_log (label) values ('written')`);
    const last = queryRows<{ n: number }>(database.db, sql`select 1 as n from pg_sleep(0.2)`);
    await sleep(20); // sent to the worker
    await database.close();
    await expect(last).resolves.toEqual([{ n: 1 }]);
    const after = await database.db.execute(sql`select 1`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(after)).toBe(true);
    // The directory is free and holds what was written: a new process (here, a new open) reads it.
    database = await openPglite(dir);
    expect(await labels()).toEqual(['written']);
  });
});
