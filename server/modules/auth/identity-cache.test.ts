import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, onboard, signIn, signUpAndSignIn, type TestApp } from '../../test/harness';
import { IdentityCache, identityChanged, MAX_AGE_MS } from './identity-cache';
import type { Identity } from './identity';

const member: Identity = { userId: 'u1', email: 'a@example.com', tenantId: 't1', role: 'owner' };
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('IdentityCache', () => {
  it('neither answers nor remembers while its feed is not up, and forgets everything when it goes down', () => {
    const cache = new IdentityCache();
    cache.remember('tok', member, inAnHour(), cache.mark());
    expect(cache.get('tok')).toBeUndefined();
    cache.up();
    cache.remember('tok', member, inAnHour(), cache.mark());
    expect(cache.get('tok')).toEqual(member);
    cache.down();
    expect(cache.get('tok')).toBeUndefined();
    cache.up();
    expect(cache.get('tok')).toBeUndefined();
  });

  it('does not keep a read that a change overtook, nor an account without a company', () => {
    const cache = new IdentityCache();
    cache.up();
    const mark = cache.mark();
    cache.changed('someone-else');
    cache.remember('tok', member, inAnHour(), mark);
    expect(cache.get('tok')).toBeUndefined();
    cache.remember('tok2', { ...member, tenantId: null, role: null }, inAnHour(), cache.mark());
    expect(cache.get('tok2')).toBeUndefined();
  });

  it("drops a changed user's sessions only, and trusts an entry until the session expires or MAX_AGE_MS", () => {
    const cache = new IdentityCache();
    cache.up();
    const now = Date.now();
    cache.remember('a1', member, inAnHour(), cache.mark(), now);
    cache.remember('a2', member, new Date(now + 1_000), cache.mark(), now);
    cache.remember('b1', { ...member, userId: 'u2' }, inAnHour(), cache.mark(), now);
    expect(cache.get('a2', now + 999)).toEqual(member);
    expect(cache.get('a2', now + 1_000)).toBeUndefined();
    expect(cache.get('a1', now + MAX_AGE_MS - 1)).toEqual(member);
    expect(cache.get('a1', now + MAX_AGE_MS)).toBeUndefined();
    cache.remember('a1', member, inAnHour(), cache.mark(), now);
    cache.changed('u1');
    expect(cache.get('a1', now)).toBeUndefined();
    expect(cache.get('b1', now)?.userId).toBe('u2');
  });
});

describe.each(backends)('identities kept in memory on %s', (backend) => {
  let t: TestApp;
  let cookie: string;
  let userId: string;
  const email = 'cached@example.com';

  /** Changes rows without firing triggers, as if the feed had missed it: shows whether the cache answered. */
  const unnoticed = (statement: ReturnType<typeof sql>) =>
    t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(statement);
    });
  const me = async (c = cookie) => {
    const res = await api(t, c, 'GET', '/api/me');
    return { status: res.statusCode, role: res.statusCode === 200 ? (res.json() as { role: string | null }).role : undefined };
  };

  beforeAll(async () => {
    t = await createTestApp(backend, { identities: true });
    await vi.waitFor(() => expect(t.identities!.isLive).toBe(true));
    cookie = await signUpAndSignIn(t, email);
    await onboard(t, cookie);
    [{ id: userId }] = (await queryRows<{ id: string }>(t.database.db, sql`select id from users where email = ${email}`)) as [{ id: string }];
  });
  afterAll(() => t.close());

  it('answers from memory once read: a change the feed missed goes unseen', async () => {
    expect(await me()).toEqual({ status: 200, role: 'owner' });
    await unnoticed(sql`update memberships set role = 'member' where user_id = ${userId}`);
    expect(await me()).toEqual({ status: 200, role: 'owner' });
    await unnoticed(sql`update memberships set role = 'owner' where user_id = ${userId}`);
  });

  it('sees a role changed by another process once the change is committed', async () => {
    // As the team screen's writes do it: the membership's statement, then its notice.
    const changeRole = (role: string) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`update memberships set role = ${role} where user_id = ${userId}`);
        await identityChanged(tx, userId);
      });
    expect(await me()).toEqual({ status: 200, role: 'owner' });
    await changeRole('admin');
    await t.identities!.settle();
    expect(await me()).toEqual({ status: 200, role: 'admin' });
    await changeRole('owner');
    await t.identities!.settle();
    expect(await me()).toEqual({ status: 200, role: 'owner' });
  });

  it('refuses a session ended elsewhere at once, and keeps the others', async () => {
    const other = await signIn(t, email);
    expect((await me(other)).status).toBe(200);
    await t.database.db.execute(sql`delete from sessions where user_id = ${userId} and id <> (select id from sessions where user_id = ${userId} order by created_at limit 1)`);
    await t.identities!.settle();
    expect((await me(other)).status).toBe(401);
    expect((await me()).status).toBe(200);
  });

  it('refuses a signed-out cookie on the very next request', async () => {
    const session = await signIn(t, email);
    expect((await me(session)).status).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie: session, origin: 'http://localhost:3000', 'content-type': 'application/json' }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await me(session)).status).toBe(401);
  });

  it.runIf(backend === 'postgres')('reads every identity again while its feed is down, and caches again once it is back', async () => {
    expect(await me()).toEqual({ status: 200, role: 'owner' });
    await t.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where query = 'select 1' or query like 'listen %'`);
    await vi.waitFor(() => expect(t.identities!.isLive).toBe(false));
    await unnoticed(sql`update memberships set role = 'member' where user_id = ${userId}`);
    expect(await me()).toEqual({ status: 200, role: 'member' });
    await vi.waitFor(() => expect(t.identities!.isLive).toBe(true), { timeout: 5_000 });
    await unnoticed(sql`update memberships set role = 'owner' where user_id = ${userId}`);
    expect(await me()).toEqual({ status: 200, role: 'owner' });
  });
});
