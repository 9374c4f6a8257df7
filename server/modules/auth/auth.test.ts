import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { PASSWORD_MESSAGES } from '../../../common/contracts/password';
import { openPostgres, queryRows } from '../../db/client';
import { CONFIRMATION_EMAILS_PER_WINDOW, SESSION_COOKIE_CACHE_SECONDS, UNCONFIRMED_ACCOUNT_HOURS } from './auth';
import { authError } from './routes';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';

import { DATABASE_UNAVAILABLE_MESSAGE } from '../../lib/db-errors';
import { api, APP_URL, backends, confirmEmail, createTestApp, signIn, TEST_APP_SECRET, TEST_PASSWORD, type TestApp } from '../../test/harness';

const headers = { 'content-type': 'application/json', origin: APP_URL };

describe.each(backends)('accounts on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const signUp = (email: string, password = TEST_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { email, password, name: email } });
  const signInAttempt = (email: string, password = TEST_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email, password } });

  it('refuses a short, a blank and a common password with clear messages, in the standard body', async () => {
    const cases: [string, string][] = [
      ['12345', PASSWORD_MESSAGES.tooShort],
      ['      ', PASSWORD_MESSAGES.blank],
      ['\t \n   ', PASSWORD_MESSAGES.blank],
      ['123456', PASSWORD_MESSAGES.tooCommon],
      ['password', PASSWORD_MESSAGES.tooCommon],
      ['Password', PASSWORD_MESSAGES.tooCommon],
      ['qwerty123', PASSWORD_MESSAGES.tooCommon],
    ];
    for (const [password, message] of cases) {
      const res = await signUp('weak@example.com', password);
      expect(res.statusCode, JSON.stringify(password)).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'VALIDATION', message } });
    }
    expect(PASSWORD_MESSAGES.tooShort).toBe('Password must be at least 6 characters');
    // Nothing was created: the address is still free.
    expect((await signUp('weak@example.com')).statusCode).toBe(200);
  });

  it('refuses a sign-up whose name or email carries control characters, or whose name is too long', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ email: 'nul\u0000@example.com', name: 'Nul' }, 'Email must not contain control characters'],
      [{ email: 'nul-name@example.com', name: 'Ann\u0000e' }, 'Name must not contain control characters'],
      [{ email: 'long-name@example.com', name: 'x'.repeat(100_000) }, 'Name must be at most 200 characters'],
    ];
    for (const [fields, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { ...fields, password: TEST_PASSWORD } });
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'VALIDATION', message } });
    }
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users where email like '%name@example.com' or email like 'nul%'`);
    expect(row!.n).toBe(0);
  });

  it('requires email confirmation before sign-in, then signs in and out', async () => {
    const email = 'owner@example.com';
    expect((await signUp(email)).statusCode).toBe(200);
    expect(t.mail.at(-1)).toMatchObject({ to: email });
    expect(t.mail.at(-1)!.text).toContain(`${APP_URL}/api/auth/verify-email?token=`);

    const early = await signInAttempt(email);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ error: { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' } });

    await confirmEmail(t, email);
    const cookie = await signIn(t, email);
    const me = await api(t, cookie, 'GET', '/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { email }, tenant: null, role: null });

    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { ...headers, cookie }, payload: {} });
    expect(out.statusCode).toBe(200);
    // The browser drops both cookies: the session token and its signed cache copy.
    const cleared = out.cookies.filter((c) => c.maxAge === 0).map((c) => c.name);
    expect(cleared).toEqual(expect.arrayContaining(['better-auth.session_token', 'better-auth.session_data']));
    // The session row is gone, so neither the bare token nor the whole header with its still
    // valid signed copy is accepted any more (decision 014).
    const tokenOnly = cookie.split('; ').filter((c) => c.startsWith('better-auth.session_token=')).join('; ');
    for (const replay of [tokenOnly, cookie]) {
      const after = await api(t, replay, 'GET', '/api/me');
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'No authenticated user' } });
    }
  });

  it('renews the signed session copy once it is older than the cache period', async () => {
    const email = 'renew@example.com';
    expect((await signUp(email)).statusCode).toBe(200);
    await confirmEmail(t, email);
    const cookie = await signIn(t, email);
    const fresh = await api(t, cookie, 'GET', '/api/me');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.cookies).toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + (SESSION_COOKIE_CACHE_SECONDS + 5) * 1000);
      const later = await api(t, cookie, 'GET', '/api/me');
      expect(later.statusCode).toBe(200);
      expect(later.cookies.map((c) => c.name)).toContain('better-auth.session_data');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a second account with the same email', async () => {
    await signUp('twice@example.com');
    const again = await signUp('twice@example.com');
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { code: 'USER_ALREADY_EXISTS', message: 'User already registered' } });
  });

  it('rejects a wrong password with the server message', async () => {
    const res = await signInAttempt('owner@example.com', 'wrong-password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Invalid email or password' } });
  });

  it('answers every auth error in the standard body', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/auth/no-such-endpoint' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    const invalid = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email: 'x@example.com' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('password') });
    const badLink = await t.app.inject({ method: 'GET', url: '/api/auth/verify-email?token=forged' });
    expect(badLink.statusCode).toBe(401);
    expect(badLink.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Invalid token' } });
    // better-auth's 405 has no code of ours: a 400 like any other malformed request.
    const wrongMethod = await t.app.inject({ method: 'POST', url: '/api/auth/get-session', headers, payload: {} });
    expect(wrongMethod.statusCode).toBe(400);
    expect(wrongMethod.json().error.code).toBe('VALIDATION');
  });

  it('sends at most the limit of confirmation emails to an address, however often it signs in', async () => {
    const email = 'unconfirmed@example.com';
    expect((await signUp(email)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signInAttempt(email)).statusCode).toBe(403);
    expect(t.mail.filter((m) => m.to === email)).toHaveLength(CONFIRMATION_EMAILS_PER_WINDOW);
    // The limit is per address: another address still gets its email.
    expect((await signUp('other-unconfirmed@example.com')).statusCode).toBe(200);
    expect(t.mail.filter((m) => m.to === 'other-unconfirmed@example.com')).toHaveLength(1);
  });

  it('lets the owner of an address take over a sign-up nobody confirmed in time', async () => {
    const email = 'squatted@example.com';
    expect((await signUp(email, 'squatter-pass-1')).statusCode).toBe(200);
    // Still within the confirmation period: the address is taken.
    expect((await signUp(email, 'owner-pass-2024')).statusCode).toBe(422);
    const backdated = new Date(Date.now() - (UNCONFIRMED_ACCOUNT_HOURS * 60 + 1) * 60 * 1000);
    await queryRows(t.database.db, sql`update users set created_at = ${backdated.toISOString()}::timestamptz where email = ${email}`);
    // Whoever asks for resends until the address's limit is used up...
    for (let i = 0; i < CONFIRMATION_EMAILS_PER_WINDOW; i++) {
      await t.app.inject({ method: 'POST', url: '/api/auth/send-verification-email', headers, payload: { email } });
    }
    expect(t.mail.filter((m) => m.to === email)).toHaveLength(CONFIRMATION_EMAILS_PER_WINDOW);
    // ...cannot keep the owner's sign-up from sending its confirmation link.
    const takeover = await signUp(email, 'owner-pass-2024');
    expect(takeover.statusCode).toBe(200);
    expect(t.mail.filter((m) => m.to === email)).toHaveLength(CONFIRMATION_EMAILS_PER_WINDOW + 1);
    const accounts = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users where email = ${email}`);
    expect(accounts).toEqual([{ n: 1 }]);
    await confirmEmail(t, email);
    expect((await signInAttempt(email, 'squatter-pass-1')).statusCode).toBe(401);
    expect((await signInAttempt(email, 'owner-pass-2024')).statusCode).toBe(200);
  });

  it('never takes over a confirmed account, however old', async () => {
    const email = 'confirmed-old@example.com';
    expect((await signUp(email)).statusCode).toBe(200);
    await confirmEmail(t, email);
    await queryRows(t.database.db, sql`update users set created_at = now() - interval '400 days' where email = ${email}`);
    expect((await signUp(email, 'someone-else-2024')).statusCode).toBe(422);
    expect((await signInAttempt(email)).statusCode).toBe(200);
  });
});

describe('auth rate limit', () => {
  it('answers 429 past the per-minute limit of auth requests', async () => {
    const t = await createTestApp('pglite', { authRateLimitPerMinute: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers,
          payload: { email: 'nobody@example.com', password: 'whatever1' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  /** Two sign-in attempts from a proxy (the socket peer 127.0.0.1) on behalf of two clients, then one more from the second. */
  async function proxiedAttempts(t: TestApp): Promise<number[]> {
    const codes: number[] = [];
    for (const client of ['203.0.113.7', '203.0.113.7', '198.51.100.9']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: '127.0.0.1',
        headers: { ...headers, 'x-forwarded-for': client },
        payload: { email: 'nobody@example.com', password: 'whatever1' },
      });
      codes.push(res.statusCode);
    }
    return codes;
  }

  it('keys the limit by the socket address unless TRUST_PROXY names the proxy', async () => {
    const direct = await createTestApp('pglite', { authRateLimitPerMinute: 2 });
    try {
      // X-Forwarded-For is ignored: every client behind the proxy shares its bucket.
      expect(await proxiedAttempts(direct)).toEqual([401, 401, 429]);
    } finally {
      await direct.close();
    }
    for (const trust of ['true', '127.0.0.1', 'loopback']) {
      const proxied = await createTestApp('pglite', { authRateLimitPerMinute: 2, env: { TRUST_PROXY: trust } });
      try {
        expect(await proxiedAttempts(proxied), trust).toEqual([401, 401, 401]);
      } finally {
        await proxied.close();
      }
    }
  });

  it('records the client address TRUST_PROXY gives on the session', async () => {
    for (const [trust, expected] of [
      ['false', '127.0.0.1'],
      ['loopback', '203.0.113.7'],
    ] as const) {
      const t = await createTestApp('pglite', { env: { TRUST_PROXY: trust } });
      try {
        const email = `ip-${trust}@example.com`;
        await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { email, password: TEST_PASSWORD, name: email } });
        await confirmEmail(t, email);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: '127.0.0.1',
          headers: { ...headers, 'x-forwarded-for': '203.0.113.7' },
          payload: { email, password: TEST_PASSWORD },
        });
        expect(res.statusCode).toBe(200);
        const rows = await queryRows<{ ip: string }>(t.database.db, sql`select ip_address as ip from sessions`);
        expect(rows, trust).toEqual([{ ip: expected }]);
      } finally {
        await t.close();
      }
    }
  });
});

describe('confirmation links', () => {
  it('a link resent on an unconfirmed sign-in also returns to sign-in with the confirmed note', async () => {
    const t = await createTestApp('pglite');
    try {
      const email = 'late@example.com';
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { email, password: TEST_PASSWORD, name: email } });
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email, password: TEST_PASSWORD } });
      const links = t.mail.filter((m) => m.to === email).map((m) => new URL(m.text.match(/https?:\/\/\S+/)![0]));
      expect(links).toHaveLength(2);
      for (const link of links) expect(link.searchParams.get('callbackURL')).toBe('/login?verified=1');
      const res = await t.app.inject({ method: 'GET', url: links[1]!.pathname + links[1]!.search });
      expect(res.headers.location).toBe('/login?verified=1');
    } finally {
      await t.close();
    }
  });
});

describe('authError', () => {
  it('gives a better-auth error our code for its status, keeps its message, and hides 5xx words', () => {
    expect(authError(401, 'null')).toEqual({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'No authenticated user' } } });
    expect(authError(403, '')).toEqual({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'Not allowed' } } });
    expect(authError(403, '{"code":"EMAIL_NOT_VERIFIED","message":"Email not verified"}').body.error.code).toBe('EMAIL_NOT_VERIFIED');
    expect(authError(422, '{"code":"USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL","message":"User already exists. Use another email."}')).toEqual({
      status: 422,
      body: { error: { code: 'USER_ALREADY_EXISTS', message: 'User already exists. Use another email.' } },
    });
    expect(authError(400, '{"code":"INVALID_EMAIL","message":"Invalid email"}')).toEqual({ status: 400, body: { error: { code: 'VALIDATION', message: 'Invalid email' } } });
    expect(authError(415, '{"code":"UNSUPPORTED_MEDIA_TYPE","message":"Content-Type is not allowed"}').status).toBe(400);
    expect(authError(500, '{"code":"FAILED_TO_CREATE_USER","message":"duplicate key value violates unique constraint"}')).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'Something went wrong. Please try again.' } },
    });
  });
});

describe('accounts while the database is unreachable', () => {
  it('answers sign-in 503 UNAVAILABLE with Retry-After, not 500', async () => {
    // Port 1 on loopback: nothing listens, every connection is refused at once.
    const database = openPostgres('postgres://postgres@127.0.0.1:1/none');
    const app = await buildApp({
      config: { ...loadConfig({ APP_URL }), appSecret: TEST_APP_SECRET },
      db: database.db,
      mailer: { send: async () => {} },
    });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email: 'a@example.com', password: TEST_PASSWORD } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
