import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE_CACHE_SECONDS } from './auth';
import { api, APP_URL, backends, confirmEmail, createTestApp, signIn, type TestApp } from '../../test/harness';

const headers = { 'content-type': 'application/json', origin: APP_URL };

describe.each(backends)('accounts on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const signUp = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { email, password, name: email } });

  it('refuses a password shorter than 6 characters', async () => {
    const res = await signUp('short@example.com', '12345');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/password/i);
  });

  it('requires email confirmation before sign-in, then signs in and out', async () => {
    const email = 'owner@example.com';
    expect((await signUp(email, 'secret123')).statusCode).toBe(200);
    expect(t.mail.at(-1)).toMatchObject({ to: email });
    expect(t.mail.at(-1)!.text).toContain(`${APP_URL}/api/auth/verify-email?token=`);

    const early = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email, password: 'secret123' } });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('EMAIL_NOT_VERIFIED');

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
    // The session itself is gone on the server (a replayed cache copy is trusted for at most
    // SESSION_COOKIE_CACHE_SECONDS: decision 006).
    const tokenOnly = cookie.split('; ').filter((c) => c.startsWith('better-auth.session_token=')).join('; ');
    const after = await api(t, tokenOnly, 'GET', '/api/me');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'No authenticated user' } });
    // The whole signed-out Cookie header, copy included, is refused at once too (decision 008),
    // where the copy alone would have been trusted until it expires.
    const replay = await api(t, cookie, 'GET', '/api/me');
    expect(replay.statusCode).toBe(401);
  });

  it('renews the signed session copy once it is older than the cache period', async () => {
    const email = 'renew@example.com';
    expect((await signUp(email, 'secret123')).statusCode).toBe(200);
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
    await signUp('twice@example.com', 'secret123');
    const again = await signUp('twice@example.com', 'secret123');
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toMatch(/^USER_ALREADY_EXISTS/);
  });

  it('rejects a wrong password with the server message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers,
      payload: { email: 'owner@example.com', password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid email or password');
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
});

describe('confirmation links', () => {
  it('a link resent on an unconfirmed sign-in also returns to sign-in with the confirmed note', async () => {
    const t = await createTestApp('pglite');
    try {
      const email = 'late@example.com';
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { email, password: 'secret123', name: email } });
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email, password: 'secret123' } });
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
