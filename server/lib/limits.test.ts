/**
 * Rate limits shared by every server (lib/limits.ts, decision 041): two servers on one PostgreSQL
 * database, as two processes behind a balancer would be (each with its own pool), take turns at
 * every limit of the product, and the limit's setting holds for both together, not for each.
 * Then a limit whose database is gone: the request is answered 503 UNAVAILABLE, the server stays up.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openPostgres, type Database } from '../db/client';
import { CONFIRMATION_EMAILS_PER_WINDOW } from '../modules/auth/auth';
import { limitNote } from '../modules/reports/assistant/narrative';
import { UNSUBSCRIBES_PER_MINUTE } from '../modules/daily-email/routes';
import { INVITATIONS_PER_WINDOW, LINK_REQUESTS_PER_MINUTE } from '../modules/team/routes';
import { APP_URL, backends, createTestApp, signUpAndSignIn, TEST_APP_SECRET, TEST_PASSWORD, type TestApp } from '../test/harness';
import { stockTenant, type StockTenant } from '../test/stock-fixtures';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './db-errors';
import { openLimits } from './limits';

const SIGN_INS_PER_MINUTE = 30;
const AI_PER_MINUTE = 3;

/** The same configuration on both servers; the AI key is a dummy whose calls fail at once (a refused port). */
const env = {
  APP_URL,
  OPENAI_API_KEY: 'sk-test',
  OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
  OPENAI_TIMEOUT_MS: '500',
  OPENAI_REPORTS_PER_MINUTE: String(AI_PER_MINUTE),
  OPENAI_SCANS_PER_MINUTE: String(AI_PER_MINUTE),
};

const jsonHeaders = { 'content-type': 'application/json', origin: APP_URL };
/** A well-formed invitation token no invitation has. */
const UNKNOWN_TOKEN = 'A'.repeat(43);

/**
 * One limit of the product: `points` attempts are let through, whichever server gets them; the
 * next is refused. `attempt` makes one on `server` and says whether it was refused.
 */
interface LimitCase {
  limit: string;
  points: number;
  attempt: (server: FastifyInstance) => Promise<boolean>;
}

describe.skipIf(!backends.includes('postgres'))('limits shared by two servers on one PostgreSQL database', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: Database;
  let owner: StockTenant;
  const resetAccount = 'forgetful@example.com';
  const unconfirmed = 'unconfirmed@example.com';
  let invited = 0;

  /** Each case has its own client address, so the per-address limits of one do not touch another's. */
  const from = (n: number) => `198.51.100.${n}`;
  const post = (server: FastifyInstance, url: string, payload: object, extra: Partial<InjectOptions> = {}) =>
    server.inject({ method: 'POST', url, headers: jsonHeaders, payload, ...extra });
  const asOwner = (server: FastifyInstance, url: string, payload?: object) =>
    server.inject({ method: 'POST', url, headers: { ...(payload ? jsonHeaders : {}), cookie: owner.cookie }, ...(payload ? { payload } : {}) });
  const mailsTo = (email: string) => a.mail.filter((m) => m.to === email).length;
  /** A refusal of a route limit: @fastify/rate-limit's 429 with its Retry-After, in the standard body. */
  const routeRefused = (res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) => {
    if (res.statusCode !== 429) return false;
    expect(res.json()).toEqual({ error: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a minute and try again.' } });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    return true;
  };

  const cases: LimitCase[] = [
    {
      limit: 'sign-in per client address',
      points: SIGN_INS_PER_MINUTE,
      attempt: async (server) =>
        routeRefused(await post(server, '/api/auth/sign-in/email', { email: 'nobody@example.com', password: TEST_PASSWORD }, { remoteAddress: from(1) })),
    },
    {
      limit: 'confirmation emails per address',
      // The sign-up's own email took one.
      points: CONFIRMATION_EMAILS_PER_WINDOW - 1,
      attempt: async (server) => {
        const before = mailsTo(unconfirmed);
        const res = await post(server, '/api/auth/sign-in/email', { email: unconfirmed, password: TEST_PASSWORD }, { remoteAddress: from(2) });
        expect(res.statusCode).toBe(403);
        return mailsTo(unconfirmed) === before;
      },
    },
    {
      limit: 'reset emails per address',
      points: CONFIRMATION_EMAILS_PER_WINDOW,
      attempt: async (server) => {
        const before = mailsTo(resetAccount);
        const res = await post(server, '/api/auth/request-password-reset', { email: resetAccount }, { remoteAddress: from(3) });
        expect(res.statusCode).toBe(200);
        return mailsTo(resetAccount) === before;
      },
    },
    {
      limit: 'invitation emails per company',
      points: INVITATIONS_PER_WINDOW,
      attempt: async (server) => {
        // Past the plan's users an invitation is refused (LIMIT_REACHED) and still counts.
        invited += 1;
        return (await asOwner(server, '/api/invitations', { email: `guest-${invited}@example.com`, role: 'member' })).statusCode === 429;
      },
    },
    ...(['preview', 'join'] as const).map((step, i) => ({
      limit: `invitation-link ${step} per client address`,
      points: LINK_REQUESTS_PER_MINUTE,
      attempt: async (server: FastifyInstance) =>
        routeRefused(await post(server, `/api/invitations/${step}`, { token: UNKNOWN_TOKEN, name: 'Casey', password: TEST_PASSWORD }, { remoteAddress: from(4 + i) })),
    })),
    {
      limit: 'invitation-link accept per client address',
      points: LINK_REQUESTS_PER_MINUTE,
      attempt: async (server) =>
        routeRefused(await post(server, '/api/invitations/accept', { token: UNKNOWN_TOKEN }, { remoteAddress: from(6), headers: { ...jsonHeaders, cookie: owner.cookie } })),
    },
    {
      limit: 'unsubscribe links per client address',
      points: UNSUBSCRIBES_PER_MINUTE,
      attempt: async (server) => routeRefused(await post(server, '/api/daily-email/unsubscribe', { token: 'not-a-token' }, { remoteAddress: from(7) })),
    },
    {
      limit: 'AI narratives per company',
      points: AI_PER_MINUTE,
      attempt: async (server) => {
        const res = await asOwner(server, '/api/reports/assistant', { type: 'summary' });
        expect(res.statusCode).toBe(200);
        return res.json<{ text: string }>().text.endsWith(limitNote(AI_PER_MINUTE));
      },
    },
    {
      limit: 'photo scans per company',
      points: AI_PER_MINUTE,
      attempt: async (server) => {
        // Counted before the photo is read: a request without one, let through, is refused 400.
        const res = await asOwner(server, `/api/units/${owner.unitId}/scans`, {});
        if (res.statusCode !== 429) {
          expect(res.statusCode).toBe(400);
          return false;
        }
        expect(res.json().error.message).toBe(`Photo scan limit reached (${AI_PER_MINUTE} a minute for your company). Please try again in a minute.`);
        return true;
      },
    },
    {
      limit: 'calendar refreshes per property',
      points: 1,
      attempt: async (server) => (await asOwner(server, `/api/units/${owner.unitId}/calendar/refresh`)).statusCode === 429,
    },
  ];

  beforeAll(async () => {
    a = await createTestApp('postgres', { authRateLimitPerMinute: SIGN_INS_PER_MINUTE, env });
    bDatabase = openPostgres(a.database.pool!.options.connectionString!, 2);
    // The second server sends its mail to the same inbox, as both would through one SMTP server.
    b = await buildApp({
      config: { ...loadConfig(env), appSecret: TEST_APP_SECRET },
      db: bDatabase.db,
      mailer: { send: async (m) => void a.mail.push(m) },
      authRateLimitPerMinute: SIGN_INS_PER_MINUTE,
    });
    await b.ready();
    owner = await stockTenant(a, 'owner@example.com');
    await signUpAndSignIn(a, resetAccount);
    const signUp = await post(a.app, '/api/auth/sign-up/email', { email: unconfirmed, password: TEST_PASSWORD, name: 'Unconfirmed' });
    expect(signUp.statusCode).toBe(200);
    expect(mailsTo(unconfirmed)).toBe(1);
    await a.database.db.execute(sql`insert into calendar_links (tenant_id, unit_id, url) values (${owner.tenantId}, ${owner.unitId}, 'http://127.0.0.1:1/feed.ics')`);
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  it.each(cases)('$limit: the setting is let through in turns on both servers, the next is refused on either', async ({ limit, points, attempt }) => {
    const refused: boolean[] = [];
    for (let i = 0; i < points; i++) refused.push(await attempt(i % 2 === 0 ? a.app : b));
    expect(refused, limit).toEqual(Array(points).fill(false));
    expect([await attempt(a.app), await attempt(b)], limit).toEqual([true, true]);
  });

  it('counts a key too long for the table by its hash', async () => {
    const limit = openLimits(a.database.db).limit({ name: 'long-keys', points: 1, durationSeconds: 60 });
    const email = `${'x'.repeat(64)}@${'y'.repeat(185)}.test`;
    expect([(await limit.take(email)).allowed, (await limit.take(email)).allowed, (await limit.take(`${email}.`)).allowed]).toEqual([true, false, true]);
  });

  it('keeps the counts in rate_limits, one row per limit and key', async () => {
    const { rows } = await a.database.pool!.query<{ key: string }>('select key from rate_limits');
    expect(rows.map((r) => r.key)).toEqual(
      expect.arrayContaining([`POST /api/auth/*:${from(1)}`, `invitation-emails:${owner.tenantId}`, `calendar-refreshes:${owner.tenantId}:${owner.unitId}`]),
    );
  });
});

describe('a limit whose database is gone', () => {
  // Port 1 on loopback: nothing listens, every connection is refused at once.
  const gone = 'postgres://postgres@127.0.0.1:1/none';

  it('throws the database error, which the error handler answers as an outage', async () => {
    const database = openPostgres(gone);
    try {
      const limit = openLimits(database.db).limit({ name: 'test', points: 1, durationSeconds: 60 });
      const err = await limit.take('key').then(() => null, (e: unknown) => e);
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('answers a limited route 503 UNAVAILABLE with Retry-After, and the server stays up', async () => {
    const database = openPostgres(gone);
    const app = await buildApp({ config: { ...loadConfig({ APP_URL }), appSecret: TEST_APP_SECRET }, db: database.db, mailer: { send: async () => {} } });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await post(app);
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
        expect(res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } });
      }
    } finally {
      await app.close();
      await database.close();
    }

    function post(server: FastifyInstance) {
      return server.inject({ method: 'POST', url: '/api/daily-email/unsubscribe', headers: jsonHeaders, payload: { token: 'not-a-token' } });
    }
  });
});
