/**
 * The account basics on both databases (docs/decisions/029-team-and-invitations.md): forgotten
 * password by an emailed single-use link that expires and gives no hint whether an address has an
 * account, the confirmation email resent, and a password changed by its signed-in owner.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, APP_URL, backends, createTestApp, signIn, signUpAndSignIn, TEST_PASSWORD, type TestApp } from '../../test/harness';

const headers = { 'content-type': 'application/json', origin: APP_URL };
const NEW_PASSWORD = 'spare-pillowcase-7';

describe.each(backends)('account basics on %s', (backend) => {
  let t: TestApp;
  const post = (url: string, payload: object, cookie?: string) => t.app.inject({ method: 'POST', url, headers: { ...headers, ...(cookie ? { cookie } : {}) }, payload });
  /** The secret of the newest reset link emailed to `email`, after letting the unawaited send finish. */
  const resetToken = async (email: string) => {
    await new Promise((r) => setTimeout(r, 20));
    const message = t.mail.filter((m) => m.to === email && m.subject.includes('Reset')).at(-1);
    return message?.text.match(/\/reset-password#(\S+)/)?.[1];
  };

  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('resets a forgotten password once with the emailed link, ending every session, and says the same for an unknown address', async () => {
    const cookie = await signUpAndSignIn(t, 'forgetful@example.com');
    const known = await post('/api/auth/request-password-reset', { email: 'forgetful@example.com' });
    const unknown = await post('/api/auth/request-password-reset', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const token = await resetToken('forgetful@example.com');
    expect(token).toBeDefined();
    expect(t.mail.some((m) => m.to === 'nobody@example.com')).toBe(false);
    expect(t.mail.at(-1)!.text).toContain(`${APP_URL}/reset-password#`);

    const weak = await post('/api/auth/reset-password', { token, newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect((await post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await api(t, cookie, 'GET', '/api/me')).statusCode).toBe(401);
    await expect(signIn(t, 'forgetful@example.com')).rejects.toThrow();
    await signIn(t, 'forgetful@example.com', NEW_PASSWORD);
    const replay = await post('/api/auth/reset-password', { token, newPassword: 'another-long-one-9' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('VALIDATION');
  });

  it('refuses an expired reset link', async () => {
    await signUpAndSignIn(t, 'late@example.com');
    await post('/api/auth/request-password-reset', { email: 'late@example.com' });
    const token = await resetToken('late@example.com');
    await t.database.db.execute(sql`update verifications set expires_at = now() - interval '1 minute' where identifier = ${`reset-password:${token}`}`);
    expect((await post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(400);
    await signIn(t, 'late@example.com');
  });

  it('resends the confirmation email of an unconfirmed address', async () => {
    await post('/api/auth/sign-up/email', { email: 'unconfirmed@example.com', password: TEST_PASSWORD, name: 'unconfirmed@example.com' });
    const before = t.mail.filter((m) => m.to === 'unconfirmed@example.com').length;
    const res = await post('/api/auth/send-verification-email', { email: 'unconfirmed@example.com', callbackURL: '/login?verified=1' });
    expect(res.statusCode).toBe(200);
    expect(t.mail.filter((m) => m.to === 'unconfirmed@example.com').length).toBe(before + 1);
  });

  it('changes the password of the signed-in user, who must give the current one', async () => {
    const cookie = await signUpAndSignIn(t, 'changer@example.com');
    const wrong = await post('/api/auth/change-password', { currentPassword: 'not-the-password', newPassword: NEW_PASSWORD }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect((await post('/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: 'password' }, cookie)).statusCode).toBe(400);
    expect((await post('/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true }, cookie)).statusCode).toBe(200);
    await signIn(t, 'changer@example.com', NEW_PASSWORD);
  });
});
