import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openPostgres, type Database } from '../../db/client';
import { APP_URL, backends, createTestApp, signUpAndSignIn, TEST_APP_SECRET, type TestApp } from '../../test/harness';

/** The Cookie header `cookie` with its cookies in reverse order and one unrelated cookie added. */
const reorderedWithExtra = (cookie: string) => [...cookie.split('; ').reverse(), 'theme=dark'].join('; ');

const me = (app: FastifyInstance, cookie: string) => app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

const signOut = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie, origin: APP_URL, 'content-type': 'application/json' }, payload: {} });

describe.each(backends)('sign-out on %s', (backend) => {
  let t: TestApp;
  /** A second server on the same database, as another process would be (its own session memo). */
  let other: FastifyInstance;
  let otherDatabase: Database | undefined;
  beforeAll(async () => {
    t = await createTestApp(backend);
    // On PostgreSQL the second server has its own pool, like another process; the embedded
    // database has one connection, so the second server shares it.
    const url = t.database.pool?.options.connectionString;
    otherDatabase = url ? openPostgres(url, 2) : undefined;
    other = await buildApp({
      config: { ...loadConfig({ APP_URL }), appSecret: TEST_APP_SECRET },
      db: otherDatabase?.db ?? t.database.db,
      mailer: { send: async () => {} },
    });
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    await otherDatabase?.close();
    await t.close();
  });

  it('refuses the signed-out cookies at once, however they are ordered or padded', async () => {
    const cookie = await signUpAndSignIn(t, 'reorder@example.com');
    expect((await me(t.app, cookie)).statusCode).toBe(200);
    expect((await me(t.app, reorderedWithExtra(cookie))).statusCode).toBe(200);
    expect((await signOut(t.app, cookie)).statusCode).toBe(200);
    for (const replay of [cookie, reorderedWithExtra(cookie), `${cookie}; theme=light`]) {
      const res = await me(t.app, replay);
      expect(res.statusCode, replay).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'No authenticated user' } });
    }
  });

  it('refuses a session signed out on another server at once', async () => {
    const cookie = await signUpAndSignIn(t, 'two-servers@example.com');
    // Both servers have verified (and remembered) the session.
    expect((await me(t.app, cookie)).statusCode).toBe(200);
    expect((await me(other, cookie)).statusCode).toBe(200);
    expect((await me(other, cookie)).statusCode).toBe(200);
    expect((await signOut(t.app, cookie)).statusCode).toBe(200);
    expect((await me(other, cookie)).statusCode).toBe(401);
    expect((await me(other, reorderedWithExtra(cookie))).statusCode).toBe(401);
  });

  it('still serves a session that is signed in on both servers', async () => {
    const cookie = await signUpAndSignIn(t, 'both@example.com');
    for (const app of [t.app, other, t.app, other]) {
      const res = await me(app, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ user: { email: 'both@example.com' }, tenant: null, role: null });
    }
  });
});
