/**
 * No secret of a link reaches the server log (lib/request-log.ts): the email confirmation link's
 * token, the password reset token (after `#` in our link, in the path of better-auth's own reset
 * route), an invitation link's secret, an unsubscribe link's signature, and the passwords of the
 * bodies. Real requests through the app, its logger writing to a stream this test reads, with
 * console output and process warnings routed into the same log as main.ts routes them.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeSigner } from '../modules/daily-email/unsubscribe-token';
import { api, APP_URL, backends, confirmEmail, createTestApp, onboard, signIn, TEST_APP_SECRET, TEST_PASSWORD, type TestApp } from '../test/harness';
import { createServerLogger, REDACTED, sendStrayOutputToLog } from './request-log';

const jsonHeaders = { 'content-type': 'application/json', origin: APP_URL };

describe.each(backends)('secrets and the server log on %s', (backend) => {
  let t: TestApp;
  let restoreConsole: () => void;
  let text = '';
  const lines: Record<string, unknown>[] = [];
  const post = (url: string, payload: unknown, cookie?: string) =>
    t.app.inject({ method: 'POST', url, headers: { ...jsonHeaders, ...(cookie ? { cookie } : {}) }, payload: payload as object });
  const lastMail = (to: string) => t.mail.filter((m) => m.to === to).at(-1)!.text;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    const log = createServerLogger(sink);
    restoreConsole = sendStrayOutputToLog(log);
    t = await createTestApp(backend, { logger: log });
  });
  afterAll(async () => {
    restoreConsole?.();
    await t?.close();
  });

  it('logs the links of sign-up, password reset, invitations and unsubscribing with their secrets redacted', async () => {
    const secrets: Record<string, string> = { password: TEST_PASSWORD };

    // Sign-up and its confirmation link: GET /api/auth/verify-email?token=…
    const owner = 'owner@secrets.example';
    expect((await post('/api/auth/sign-up/email', { email: owner, password: TEST_PASSWORD, name: owner, callbackURL: '/login?verified=1' })).statusCode).toBe(200);
    secrets.confirmation = new URL(lastMail(owner).match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
    await confirmEmail(t, owner);
    const cookie = await signIn(t, owner);
    await onboard(t, cookie);

    // Password reset: our link carries the token after '#'; better-auth's own route takes it in the path.
    expect((await post('/api/auth/request-password-reset', { email: owner })).statusCode).toBe(200);
    await expect.poll(() => t.mail.filter((m) => m.to === owner).length).toBe(2);
    secrets.reset = lastMail(owner).match(/\/reset-password#(\S+)/)![1]!;
    const callback = await t.app.inject({ method: 'GET', url: `/api/auth/reset-password/${secrets.reset}?callbackURL=%2Freset-password` });
    expect(callback.statusCode).toBe(302);
    secrets.newPassword = 'tea-towel-cupboard-77';
    expect((await post('/api/auth/reset-password', { token: secrets.reset, newPassword: secrets.newPassword })).statusCode).toBe(200);
    const owned = await signIn(t, owner, secrets.newPassword);

    // An invitation link's secret goes in bodies only; the new member's password too.
    const invitee = 'cleaner@secrets.example';
    expect((await api(t, owned, 'POST', '/api/invitations', { email: invitee, role: 'member' })).statusCode).toBe(201);
    secrets.invitation = lastMail(invitee).match(/\/invite#([A-Za-z0-9_-]+)/)![1]!;
    expect((await post('/api/invitations/preview', { token: secrets.invitation })).statusCode).toBe(200);
    secrets.inviteePassword = 'pillow-case-stack-31';
    expect((await post('/api/invitations/join', { token: secrets.invitation, name: 'Casey', password: secrets.inviteePassword })).statusCode).toBe(200);

    // Unsubscribing: the web page posts the token; a mail provider's one-click sends it in the query.
    const me = (await api(t, owned, 'GET', '/api/me')).json() as { user: { id: string }; tenant: { id: string } };
    const unsubscribe = unsubscribeSigner(TEST_APP_SECRET).sign(me.tenant.id, me.user.id);
    secrets.unsubscribe = unsubscribe.split('.').at(-1)!;
    expect((await post('/api/daily-email/unsubscribe', { token: unsubscribe })).statusCode).toBe(200);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: `/api/daily-email/unsubscribe?token=${encodeURIComponent(unsubscribe)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: APP_URL },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);

    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      expect(text, `the ${name} secret is in the log`).not.toContain(secret);
    }
    const urls = lines.filter((l) => l.msg === 'request').map((l) => String(l.url));
    expect(urls).toContain(`/api/auth/verify-email?token=${REDACTED}&callbackURL=%2Flogin%3Fverified%3D1`);
    expect(urls).toContain(`/api/auth/reset-password/${REDACTED}?callbackURL=%2Freset-password`);
    expect(urls).toContain(`/api/daily-email/unsubscribe?token=${REDACTED}`);
  });
});
