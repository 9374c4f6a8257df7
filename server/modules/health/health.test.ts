/**
 * GET /api/health and GET /api/ready (decision 010), on PGlite and PostgreSQL: health never asks
 * the database; ready answers 200 only when the database is reachable and migrated, else 503
 * UNAVAILABLE with Retry-After.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openPostgres, queryRows } from '../../db/client';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS } from '../../lib/db-errors';
import { backends, createTestApp, type TestApp } from '../../test/harness';
import { useSilentHost } from '../../test/silent-host';
import { latestMigration, READY_TIMEOUT_MS } from './service';

const latest = latestMigration();

describe.each(backends)('health and readiness on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('health answers without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('ready answers with the latest migration of the journal when it is applied', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, migration: latest.tag });
  });

  it('ready answers 503 while the latest migration is missing, health still 200', async () => {
    const [removed] = await queryRows<{ id: number; hash: string; created_at: string }>(
      t.database.db,
      sql`delete from drizzle.__drizzle_migrations where created_at = ${latest.when} returning id, hash, created_at`,
    );
    expect(removed).toBeDefined();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: 'The database is not up to date yet. Please try again in a moment.' } });
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${removed!.id}, ${removed!.hash}, ${removed!.created_at})`,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });
});

describe('readiness without a working database server', () => {
  const silent = useSilentHost();

  it.each([
    // Nothing listens on port 1: every connect is refused.
    ['refuses connections', () => 'postgres://postgres@127.0.0.1:1/none'],
    ['never answers', () => silent.url()],
  ])('ready answers 503 UNAVAILABLE within its timeout when the server %s, health 200', async (_label, url) => {
    const database = openPostgres(url());
    const config = loadConfig({ APP_URL: 'http://localhost:3000' });
    const app = await buildApp({ config: { ...config, appSecret: 'test-secret-test-secret-test-secret-0123' }, db: database.db });
    try {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(performance.now() - started).toBeLessThan(READY_TIMEOUT_MS + 500);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
