/**
 * The team on both databases (docs/decisions/029-team-and-invitations.md): invitations by email
 * and their links (new account, signed-in account, used, revoked, resent, expired, tampered), the
 * plan's user limit held by concurrent invitations, the role rules and the last owner, the
 * per-company rate limit, and access changes seen on the next request with identities kept in
 * memory.
 */
import { addDays } from 'date-fns';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { setTenantPlan, setTrialEnd } from '../billing/operator';
import { api, APP_URL, backends, createTestApp, signIn, signUpAndSignIn, TEST_PASSWORD, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { INVITATIONS_PER_WINDOW } from './routes';
import { LINK_REFUSALS } from './invitation-link';

const jsonHeaders = { 'content-type': 'application/json', origin: APP_URL };

/** The secret of the newest invitation link emailed to `email`. */
function linkToken(t: TestApp, email: string): string {
  const message = t.mail.filter((m) => m.to === email).at(-1);
  const token = message?.text.match(/\/invite#([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error(`no invitation email for ${email}`);
  return token;
}

const post = (t: TestApp, url: string, payload: unknown, cookie?: string) =>
  t.app.inject({ method: 'POST', url, headers: { ...jsonHeaders, ...(cookie ? { cookie } : {}) }, payload: payload as object });

/** Joins from the newest link to `email` as a new account; returns its session cookie. */
async function joinAsNew(t: TestApp, email: string, name = 'New Person'): Promise<string> {
  const res = await post(t, '/api/invitations/join', { token: linkToken(t, email), name, password: TEST_PASSWORD });
  if (res.statusCode !== 200) throw new Error(`join failed: ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

describe.each(backends)('the team on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let other: StockTenant;
  const members = async () => (await api(t, s.cookie, 'GET', '/api/users')).json() as { members: { email: string; role: string; user_id: string; name: string }[]; invitations: { id: string; email: string }[] };
  const userId = async (email: string) => (await members()).members.find((m) => m.email === email)!.user_id;

  beforeAll(async () => {
    t = await createTestApp(backend, { identities: true });
    s = await stockTenant(t, 'owner@example.com');
    other = await stockTenant(t, 'other-owner@example.com');
  });
  afterAll(() => t.close());

  it('invites a new person who creates the account from the link, lands in the company as a member, without a confirmation email', async () => {
    const res = await api(t, s.cookie, 'POST', '/api/invitations', { email: '  Cleaner@Example.com ', role: 'member' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: 'cleaner@example.com', role: 'member', invited_by: 'owner@example.com' });
    const mail = t.mail.at(-1)!;
    expect(mail.to).toBe('cleaner@example.com');
    expect(mail.subject).toBe('owner@example.com invited you to Acme Rentals on Inventory Manager');
    expect(mail.text).toContain(`${APP_URL}/invite#`);
    expect((await members()).invitations.map((i) => i.email)).toEqual(['cleaner@example.com']);

    const token = linkToken(t, 'cleaner@example.com');
    const preview = await post(t, '/api/invitations/preview', { token });
    expect(preview.json()).toEqual({ company_name: 'Acme Rentals', inviter: 'owner@example.com', email: 'cleaner@example.com', role: 'member', has_account: false });

    const weak = await post(t, '/api/invitations/join', { token, name: 'Casey', password: 'password' });
    expect(weak.statusCode).toBe(400);
    const mailsBefore = t.mail.length;
    const cookie = await joinAsNew(t, 'cleaner@example.com', 'Casey');
    expect(t.mail.length).toBe(mailsBefore);
    const me = (await api(t, cookie, 'GET', '/api/me')).json();
    expect(me).toMatchObject({ tenant: { id: s.tenantId, name: 'Acme Rentals' }, role: 'member' });
    expect((await api(t, cookie, 'GET', '/api/onboarding/status')).json()).toEqual({ needs_onboarding: false, current_step: 'units' });
    // Who did what: the dashboard names the member who made each change.
    await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: s.itemIds['Bath Towel'], quantity: 3 });
    expect((await api(t, cookie, 'POST', `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']}/consume`)).statusCode).toBe(200);
    const activity = (await api(t, s.cookie, 'GET', '/api/dashboard')).json().recent_activity as { by: string | null; quantity_change: number }[];
    expect(activity[0]).toMatchObject({ by: 'Casey', quantity_change: -1 });
    expect(activity.find((a) => a.quantity_change > 0)?.by).toBe('owner@example.com');
    expect((await api(t, cookie, 'POST', '/api/items', { name: 'Soap', category: 'Bath' })).statusCode).toBe(403);
    const team = await members();
    expect(team.invitations).toEqual([]);
    expect(team.members.find((m) => m.email === 'cleaner@example.com')).toMatchObject({ name: 'Casey', role: 'member' });
    // The same link again, and a tampered one.
    expect((await post(t, '/api/invitations/join', { token, name: 'X', password: TEST_PASSWORD })).json().error).toEqual({ code: 'CONFLICT', message: LINK_REFUSALS.used });
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await post(t, '/api/invitations/preview', { token: tampered })).json().error).toEqual({ code: 'NOT_FOUND', message: LINK_REFUSALS.invalid });
    expect((await post(t, '/api/invitations/preview', { token: 'not-a-token' })).statusCode).toBe(400);
  });

  it('lets a signed-in account with the invited email accept with one request, and nobody else', async () => {
    const cookie = await signUpAndSignIn(t, 'manager@example.com');
    await api(t, s.cookie, 'POST', '/api/invitations', { email: 'manager@example.com', role: 'admin' });
    const token = linkToken(t, 'manager@example.com');
    expect((await post(t, '/api/invitations/preview', { token })).json().has_account).toBe(true);
    expect((await post(t, '/api/invitations/join', { token, name: 'X', password: TEST_PASSWORD })).json().error.code).toBe('CONFLICT');
    const stranger = await signUpAndSignIn(t, 'stranger@example.com');
    const wrong = await post(t, '/api/invitations/accept', { token }, stranger);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.message).toBe('This invitation was sent to manager@example.com. Sign in with that address to accept it.');
    expect((await post(t, '/api/invitations/accept', { token })).statusCode).toBe(401);
    const accepted = await post(t, '/api/invitations/accept', { token }, cookie);
    expect(accepted.json()).toEqual({ company_name: 'Acme Rentals' });
    expect((await api(t, cookie, 'GET', '/api/me')).json().role).toBe('admin');
    expect((await post(t, '/api/invitations/accept', { token }, cookie)).json().error).toEqual({ code: 'CONFLICT', message: LINK_REFUSALS.used });
  });

  it('refuses bad invitations with a clear error and keeps nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{ email: 'not-an-email', role: 'member' }, 400, 'Please enter a valid email address'],
      [{ email: 'a\u0000b@example.com', role: 'member' }, 400, 'Please enter a valid email address'],
      [{ email: 'x@example.com', role: 'owner' }, 400, 'Role must be Admin or Member'],
      [{ email: 'owner@example.com', role: 'member' }, 409, 'You cannot invite yourself.'],
      [{ email: 'cleaner@example.com', role: 'member' }, 409, 'cleaner@example.com is already a member of your company.'],
      [{ email: 'other-owner@example.com', role: 'member' }, 409, 'other-owner@example.com already belongs to another company. A person can belong to one company only.'],
    ];
    const before = (await members()).invitations.length;
    for (const [body, status, message] of cases) {
      const res = await api(t, s.cookie, 'POST', '/api/invitations', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(res.json().error), JSON.stringify(body)).toContain(message);
    }
    await api(t, s.cookie, 'POST', '/api/invitations', { email: 'twice@example.com', role: 'member' });
    const again = await api(t, s.cookie, 'POST', '/api/invitations', { email: 'TWICE@example.com', role: 'admin' });
    expect(again.json().error).toEqual({ code: 'CONFLICT', message: 'An invitation to twice@example.com is already pending. Resend it from the list.' });
    expect((await members()).invitations.length).toBe(before + 1);
  });

  it('revokes, resends (the old link stops working) and expires invitations; another company sees none of them', async () => {
    const invited = (await api(t, s.cookie, 'POST', '/api/invitations', { email: 'revoked@example.com', role: 'member' })).json() as { id: string };
    const revokedToken = linkToken(t, 'revoked@example.com');
    expect((await api(t, other.cookie, 'DELETE', `/api/invitations/${invited.id}`)).statusCode).toBe(404);
    expect((await api(t, other.cookie, 'POST', `/api/invitations/${invited.id}/resend`)).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'DELETE', `/api/invitations/${invited.id}`)).statusCode).toBe(204);
    expect((await post(t, '/api/invitations/preview', { token: revokedToken })).json().error).toEqual({ code: 'CONFLICT', message: LINK_REFUSALS.revoked });
    expect((await api(t, s.cookie, 'DELETE', `/api/invitations/${invited.id}`)).statusCode).toBe(404);

    const resent = (await api(t, s.cookie, 'POST', '/api/invitations', { email: 'resent@example.com', role: 'member' })).json() as { id: string };
    const first = linkToken(t, 'resent@example.com');
    expect((await api(t, s.cookie, 'POST', `/api/invitations/${resent.id}/resend`)).statusCode).toBe(200);
    const second = linkToken(t, 'resent@example.com');
    expect(second).not.toBe(first);
    expect((await post(t, '/api/invitations/preview', { token: first })).statusCode).toBe(404);
    expect((await post(t, '/api/invitations/preview', { token: second })).statusCode).toBe(200);

    t.setNow(addDays(new Date(), 8));
    try {
      expect((await post(t, '/api/invitations/preview', { token: second })).json().error).toEqual({ code: 'CONFLICT', message: LINK_REFUSALS.expired });
      expect((await members()).invitations.map((i) => i.email)).not.toContain('resent@example.com');
    } finally {
      t.setNow(new Date());
    }
  });

  it("holds the plan's user limit with members and open invitations, also for concurrent invitations", async () => {
    const starter = await stockTenant(t, 'starter@example.com');
    await setTenantPlan(t.database.db, starter.tenantId, 'Starter'); // 2 users
    try {
      const results = await Promise.all(
        ['seat-a@example.com', 'seat-b@example.com', 'seat-c@example.com'].map((email) => api(t, starter.cookie, 'POST', '/api/invitations', { email, role: 'member' })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 402, 402]);
      const refused = results.find((r) => r.statusCode === 402)!.json().error;
      expect(refused).toEqual({ code: 'LIMIT_REACHED', message: 'You have reached the maximum number of users for your plan. Please upgrade to add more.' });
      expect((await api(t, starter.cookie, 'GET', '/api/subscription/usage')).json().used.users).toBe(2);
    } finally {
      await setTenantPlan(t.database.db, starter.tenantId, null);
    }
  });

  it('applies the expired-trial gate to inviting, not to revoking', async () => {
    const open = (await api(t, s.cookie, 'POST', '/api/invitations', { email: 'gate@example.com', role: 'member' })).json() as { id: string };
    // An hour back: the app's clock stands where the test before left it.
    await setTrialEnd(t.database.db, s.tenantId, new Date(Date.now() - 60 * 60_000));
    try {
      expect((await api(t, s.cookie, 'POST', '/api/invitations', { email: 'gate2@example.com', role: 'member' })).statusCode).toBe(402);
      expect((await api(t, s.cookie, 'DELETE', `/api/invitations/${open.id}`)).statusCode).toBe(204);
    } finally {
      await setTrialEnd(t.database.db, s.tenantId, addDays(new Date(), 14));
    }
  });

  it('enforces who may change whom: members nothing, admins never an owner, the last owner stays', async () => {
    const cleaner = await signIn(t, 'cleaner@example.com');
    const manager = await signIn(t, 'manager@example.com');
    const ownerId = await userId('owner@example.com');
    const cleanerId = await userId('cleaner@example.com');
    const managerId = await userId('manager@example.com');
    const forbidden = { code: 'FORBIDDEN', message: 'Your role does not allow this action. Ask an administrator of your company.' };
    expect((await api(t, cleaner, 'POST', '/api/invitations', { email: 'x@example.com', role: 'member' })).json().error).toEqual(forbidden);
    expect((await api(t, cleaner, 'PATCH', `/api/users/${cleanerId}`, { role: 'admin' })).json().error).toEqual(forbidden);
    expect((await api(t, manager, 'PATCH', `/api/users/${managerId}`, { role: 'owner' })).json().error).toEqual(forbidden);
    expect((await api(t, manager, 'PATCH', `/api/users/${ownerId}`, { role: 'member' })).json().error).toEqual(forbidden);
    expect((await api(t, manager, 'DELETE', `/api/users/${ownerId}`)).json().error).toEqual(forbidden);
    expect((await api(t, other.cookie, 'DELETE', `/api/users/${cleanerId}`)).statusCode).toBe(404);
    expect((await api(t, other.cookie, 'PATCH', `/api/users/${cleanerId}`, { role: 'admin' })).statusCode).toBe(404);

    const last = await api(t, s.cookie, 'PATCH', `/api/users/${ownerId}`, { role: 'admin' });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.message).toBe('The last owner cannot be demoted. A company needs an owner. Make another member an owner first.');
    expect((await api(t, s.cookie, 'DELETE', `/api/users/${ownerId}`)).json().error.code).toBe('LAST_RECORD');

    // A changed role applies on the next request, identities kept in memory notwithstanding.
    expect((await api(t, cleaner, 'GET', '/api/me')).json().role).toBe('member');
    expect((await api(t, manager, 'PATCH', `/api/users/${cleanerId}`, { role: 'admin' })).statusCode).toBe(204);
    expect((await api(t, cleaner, 'GET', '/api/me')).json().role).toBe('admin');
    expect((await api(t, cleaner, 'POST', '/api/items', { name: 'Hand Soap', category: 'Bath' })).statusCode).toBe(201);
    expect((await api(t, manager, 'PATCH', `/api/users/${cleanerId}`, { role: 'member' })).statusCode).toBe(204);

    // Ownership handed over: the owner makes the manager an owner, then steps down.
    expect((await api(t, s.cookie, 'PATCH', `/api/users/${managerId}`, { role: 'owner' })).statusCode).toBe(204);
    expect((await api(t, s.cookie, 'PATCH', `/api/users/${ownerId}`, { role: 'admin' })).statusCode).toBe(204);
    expect((await api(t, manager, 'PATCH', `/api/users/${managerId}`, { role: 'admin' })).json().error.code).toBe('LAST_RECORD');
    expect((await api(t, manager, 'PATCH', `/api/users/${ownerId}`, { role: 'owner' })).statusCode).toBe(204);
  });

  it("removes a member: their open sessions are refused on the next request, with identities kept in memory", async () => {
    const cleaner = await signIn(t, 'cleaner@example.com');
    const secondTab = await signIn(t, 'cleaner@example.com');
    expect((await api(t, cleaner, 'GET', '/api/units')).statusCode).toBe(200);
    expect((await api(t, secondTab, 'GET', '/api/units')).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'DELETE', `/api/users/${await userId('cleaner@example.com')}`)).statusCode).toBe(204);
    for (const cookie of [cleaner, secondTab]) {
      const res = await api(t, cookie, 'GET', '/api/units');
      expect(res.statusCode).toBe(401);
    }
    expect((await members()).members.map((m) => m.email)).not.toContain('cleaner@example.com');
    const activity = (await api(t, s.cookie, 'GET', '/api/dashboard')).json().recent_activity as { by: string | null }[];
    expect(activity.map((a) => a.by)).toContain('a former member');
    // The account stays, without a company: it may sign in again, and be invited again.
    const back = await signIn(t, 'cleaner@example.com');
    expect((await api(t, back, 'GET', '/api/me')).json()).toMatchObject({ tenant: null, role: null });
  });

  it('rate limits invitation emails per company', async () => {
    const burst = await stockTenant(t, 'burst@example.com');
    const answers: number[] = [];
    for (let i = 0; i < 200; i++) answers.push((await api(t, burst.cookie, 'POST', '/api/invitations', { email: `burst-${i}@example.com`, role: 'member' })).statusCode);
    expect(answers.slice(0, 9)).toEqual(Array(9).fill(201)); // Professional during the trial: 10 users.
    expect(answers.slice(INVITATIONS_PER_WINDOW)).toEqual(Array(200 - INVITATIONS_PER_WINDOW).fill(429));
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from invitations where tenant_id = ${burst.tenantId}`);
    expect(row!.n).toBe(9);
    // Another company is not held back by it.
    expect((await api(t, other.cookie, 'POST', '/api/invitations', { email: 'unrelated@example.com', role: 'member' })).statusCode).toBe(201);
  });
});
