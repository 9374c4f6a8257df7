/**
 * A company's API keys on both databases (docs/decisions/049-api-keys.md): creation, list and
 * revoke by admins and owners; the key shown once and stored hashed; a revoked key refused on the
 * next request by this server and by a second one on the same database; a key acting with at most
 * its creator's current role and not at all once they left; the bearer winning over a cookie;
 * changes made with a key recorded in the ledger as the key's and named so on the Dashboard; the
 * key's last use written at most once a minute; and the per-minute limit. The walk of every route
 * with every kind of key is in server/access.test.ts, another company's key in server/db/tenancy.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../common/contracts/api-keys';
import { KEY_NOT_ALLOWED_MESSAGE, READ_ONLY_KEY_MESSAGE } from '../../access';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openPostgres, queryRows, type Database } from '../../db/client';
import { ROLE_REFUSED_MESSAGE } from '../../lib/roles';
import { api, apiWithKey, APP_URL, backends, createTestApp, signUpAndSignIn, TEST_APP_SECRET, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { KEY_REFUSED_MESSAGE } from './service';

const unauthenticated = { code: 'UNAUTHENTICATED', message: KEY_REFUSED_MESSAGE };

describe.each(backends)('API keys on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let other: StockTenant;
  let adminCookie: string;
  let memberCookie: string;
  /** A second server on the same database, as another process behind a balancer would be. */
  let second: FastifyInstance;
  let secondDatabase: Database | undefined;

  const joinAs = async (email: string, role: 'member' | 'admin') => {
    const cookie = await signUpAndSignIn(t, email);
    const me = (await api(t, cookie, 'GET', '/api/me')).json() as { user: { id: string } };
    await t.database.db.execute(sql`insert into memberships (tenant_id, id, user_id, role) values (${s.tenantId}, ${randomUUID()}, ${me.user.id}, ${role})`);
    return cookie;
  };
  const create = async (cookie: string, name: string, role: string) => {
    const res = await api(t, cookie, 'POST', '/api/api-keys', { name, role });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as CreatedApiKey;
  };
  const userId = async (email: string) =>
    (await queryRows<{ id: string }>(t.database.db, sql`select id from users where email = ${email}`))[0]!.id;

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'owner@example.com');
    other = await stockTenant(t, 'other@example.com');
    adminCookie = await joinAs('admin@example.com', 'admin');
    memberCookie = await joinAs('member@example.com', 'member');
    // On PostgreSQL the second server has its own pool, like another process; the embedded
    // database has one connection, so the second server shares it.
    const url = t.database.pool?.options.connectionString;
    secondDatabase = url ? openPostgres(url, 2) : undefined;
    second = await buildApp({ config: { ...loadConfig({ APP_URL }), appSecret: TEST_APP_SECRET }, db: secondDatabase?.db ?? t.database.db, mailer: { send: async () => {} } });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
    await t?.close();
  });

  it('lets admins and owners create, list and revoke keys, shows a key once and stores only its hash', async () => {
    const reader = await create(s.cookie, '  Spreadsheet  ', 'read_only');
    expect(reader.key).toMatch(/^imk_[A-Za-z0-9_-]{43}$/);
    expect(reader).toMatchObject({ name: 'Spreadsheet', role: 'read_only', prefix: reader.key.slice(0, 10), created_by: 'owner@example.com', last_used_at: null, revoked_at: null });
    const byAdmin = await create(adminCookie, 'PMS sync', 'admin');
    expect(byAdmin.created_by).toBe('admin@example.com');

    const listed = (await api(t, adminCookie, 'GET', '/api/api-keys')).json() as { keys: Record<string, unknown>[] };
    expect(listed.keys.map((k) => k.name)).toEqual(['PMS sync', 'Spreadsheet']);
    for (const k of listed.keys) expect(k).not.toHaveProperty('key');
    const [stored] = await queryRows<{ row: string; key_hash: string }>(t.database.db, sql`select row_to_json(k)::text as row, key_hash from api_keys k where id = ${reader.id}`);
    expect(stored!.key_hash).toBe(createHash('sha256').update(reader.key).digest('hex'));
    expect(stored!.row).not.toContain(reader.key.slice(10));

    // Members neither see nor manage keys; bad input is refused with the field's sentence.
    for (const [method, url, body] of [['GET', '/api/api-keys'], ['POST', '/api/api-keys', { name: 'X', role: 'read_only' }], ['DELETE', `/api/api-keys/${reader.id}`]] as const) {
      const res = await api(t, memberCookie, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.message).toBe(ROLE_REFUSED_MESSAGE);
    }
    expect((await api(t, s.cookie, 'POST', '/api/api-keys', { name: ' ', role: 'member' })).json().error.issues[0].message).toBe('Name is required');
    expect(JSON.stringify((await api(t, s.cookie, 'POST', '/api/api-keys', { name: 'X', role: 'owner' })).json())).toContain('Role must be Read-only, Member or Admin');

    // Another company cannot revoke it; its owner can, once, and it is refused from then on.
    expect((await api(t, other.cookie, 'DELETE', `/api/api-keys/${reader.id}`)).statusCode).toBe(404);
    expect((await apiWithKey(t.app, reader.key, 'GET', '/api/units')).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'DELETE', `/api/api-keys/${reader.id}`)).statusCode).toBe(204);
    expect((await api(t, s.cookie, 'DELETE', `/api/api-keys/${reader.id}`)).statusCode).toBe(204);
    expect((await apiWithKey(t.app, reader.key, 'GET', '/api/units')).json().error).toEqual(unauthenticated);
    const after = (await api(t, s.cookie, 'GET', '/api/api-keys')).json() as { keys: { id: string; revoked_at: string | null }[] };
    expect(after.keys.find((k) => k.id === reader.id)!.revoked_at).not.toBeNull();
  });

  it('refuses a revoked key on the very next request, on this server and on another one on the same database', async () => {
    const key = await create(s.cookie, 'Two servers', 'member');
    expect((await apiWithKey(second, key.key, 'GET', '/api/units')).statusCode).toBe(200);
    expect((await apiWithKey(t.app, key.key, 'GET', '/api/units')).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'DELETE', `/api/api-keys/${key.id}`)).statusCode).toBe(204);
    for (const app of [second, t.app]) {
      const res = await apiWithKey(app, key.key, 'GET', '/api/units');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual(unauthenticated);
    }
    // Keys are read by hash: a well-formed key nobody made, and a malformed one, are refused the same way.
    expect((await apiWithKey(t.app, `imk_${'A'.repeat(43)}`, 'GET', '/api/units')).json().error).toEqual(unauthenticated);
    expect((await apiWithKey(t.app, 'not-a-key', 'GET', '/api/units')).json().error).toEqual(unauthenticated);
  });

  it('takes the bearer over a cookie, and never lets a key manage keys', async () => {
    const reader = await create(s.cookie, 'Reader', 'read_only');
    const adminKey = await create(s.cookie, 'Admin key', 'admin');
    const withBoth = await apiWithKey(t.app, reader.key, 'POST', '/api/items', { name: 'Soap', category: 'Bath' }, s.cookie);
    expect(withBoth.statusCode).toBe(403);
    expect(withBoth.json().error.message).toBe(READ_ONLY_KEY_MESSAGE);
    expect((await apiWithKey(t.app, 'imk_wrong', 'GET', '/api/units', undefined, s.cookie)).statusCode).toBe(401);
    for (const [method, url, body] of [['GET', '/api/api-keys'], ['POST', '/api/api-keys', { name: 'X', role: 'read_only' }], ['DELETE', `/api/api-keys/${reader.id}`], ['GET', '/api/me']] as const) {
      const res = await apiWithKey(t.app, adminKey.key, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.message, url).toBe(KEY_NOT_ALLOWED_MESSAGE);
    }
    // The tenant comes from the key alone: another company's id in the query is refused, not followed.
    const withTenant = await apiWithKey(t.app, reader.key, 'GET', `/api/units?tenant_id=${other.tenantId}`);
    expect(withTenant.statusCode).toBe(400);
    expect(withTenant.json().error.message).toBe('Unknown query parameter: tenant_id');
    const units = (await apiWithKey(t.app, reader.key, 'GET', '/api/units')).json() as { id: string }[];
    expect(units.map((u) => u.id)).toEqual([s.unitId]);
  });

  it("acts with at most its creator's current role, and stops working when they leave the company", async () => {
    const cookie = await joinAs('leaving@example.com', 'admin');
    const key = await create(cookie, 'Leaving admin', 'admin');
    expect((await apiWithKey(t.app, key.key, 'POST', '/api/items', { name: `Soap ${randomUUID()}`, category: 'Bath' })).statusCode).toBe(201);
    const leaving = await userId('leaving@example.com');
    expect((await api(t, s.cookie, 'PATCH', `/api/users/${leaving}`, { role: 'member' })).statusCode).toBe(204);
    const demoted = await apiWithKey(t.app, key.key, 'POST', '/api/items', { name: `Soap ${randomUUID()}`, category: 'Bath' });
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json().error.message).toBe(ROLE_REFUSED_MESSAGE);
    expect((await apiWithKey(t.app, key.key, 'GET', '/api/items')).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'DELETE', `/api/users/${leaving}`)).statusCode).toBe(204);
    const gone = await apiWithKey(t.app, key.key, 'GET', '/api/items');
    expect(gone.statusCode).toBe(401);
    expect(gone.json().error.message).toContain('the person who created it is no longer a member of the company');
    const listed = (await api(t, s.cookie, 'GET', '/api/api-keys')).json() as { keys: { id: string; created_by: string | null }[] };
    expect(listed.keys.find((k) => k.id === key.id)!.created_by).toBe('a former member');
  });

  it('records every stock change made with a key as made by that key, and the Dashboard names the key', async () => {
    const key = await create(s.cookie, 'Cleaning app', 'member');
    const towel = s.itemIds['Bath Towel']!;
    expect((await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 10 }] })).statusCode).toBe(200);
    // A plus tap (a transfer from the garage) and a minus tap with the key; one of the owner's own.
    expect((await apiWithKey(t.app, key.key, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 2 })).statusCode).toBe(200);
    expect((await apiWithKey(t.app, key.key, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`)).statusCode).toBe(200);
    const activity = (await api(t, s.cookie, 'GET', '/api/dashboard')).json().recent_activity as { by: string | null; quantity_change: number; source_name: string }[];
    expect(activity.slice(0, 3)).toEqual([
      expect.objectContaining({ by: 'API key “Cleaning app”', quantity_change: -1, source_name: 'Beach House' }),
      expect.objectContaining({ by: 'API key “Cleaning app”' }),
      expect.objectContaining({ by: 'API key “Cleaning app”' }),
    ]);
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`)).statusCode).toBe(200);
    expect(((await api(t, s.cookie, 'GET', '/api/dashboard')).json().recent_activity as { by: string }[])[0]!.by).toBe('owner@example.com');

    const rows = await queryRows<{ type: string; quantity_change: number; user_id: string | null; api_key_id: string | null }>(
      t.database.db,
      sql`select type, quantity_change, user_id, api_key_id from inventory_logs where tenant_id = ${s.tenantId} and item_id = ${towel} and type in ('restock', 'consumption') order by created_at, quantity_change, id`,
    );
    expect(rows).toEqual([
      { type: 'restock', quantity_change: -2, user_id: s.owner.userId, api_key_id: key.id },
      { type: 'restock', quantity_change: 2, user_id: s.owner.userId, api_key_id: key.id },
      { type: 'consumption', quantity_change: -1, user_id: s.owner.userId, api_key_id: key.id },
      { type: 'consumption', quantity_change: -1, user_id: s.owner.userId, api_key_id: null },
    ].map((r) => expect.objectContaining(r)));
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('writes a key’s last use at most once a minute', async () => {
    const key = await create(s.cookie, 'Clocked', 'read_only');
    const lastUse = async () => (await queryRows<{ at: string | Date | null }>(t.database.db, sql`select last_used_at as at from api_keys where id = ${key.id}`))[0]!.at;
    const start = new Date(Date.now() + 60 * 60_000);
    try {
      t.setNow(start);
      await apiWithKey(t.app, key.key, 'GET', '/api/items');
      expect(new Date((await lastUse())!).toISOString()).toBe(start.toISOString());
      t.setNow(new Date(start.getTime() + 59_000));
      await apiWithKey(t.app, key.key, 'GET', '/api/items');
      expect(new Date((await lastUse())!).toISOString()).toBe(start.toISOString());
      const later = new Date(start.getTime() + 61_000);
      t.setNow(later);
      await apiWithKey(t.app, key.key, 'GET', '/api/items');
      expect(new Date((await lastUse())!).toISOString()).toBe(later.toISOString());
      const listed = (await api(t, s.cookie, 'GET', '/api/api-keys')).json() as { keys: { id: string; last_used_at: string | null }[] };
      expect(listed.keys.find((k) => k.id === key.id)!.last_used_at).toBe(later.toISOString());
    } finally {
      t.setNow(new Date());
    }
  });
});

describe.each(backends)('the per-minute limit of a key on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { env: { API_KEY_REQUESTS_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('lets a key make API_KEY_REQUESTS_PER_MINUTE requests a minute, then answers 429; another key has its own', async () => {
    const s = await stockTenant(t, 'limited@example.com');
    const keys = await Promise.all(['One', 'Two'].map(async (name) => (await api(t, s.cookie, 'POST', '/api/api-keys', { name, role: 'read_only' })).json() as CreatedApiKey));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await apiWithKey(t.app, keys[0]!.key, 'GET', '/api/units')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await apiWithKey(t.app, keys[0]!.key, 'GET', '/api/units');
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(refused.json().error.message).toMatch(/^Too many requests with this API key: it may make 3 a minute\. Please wait \d+ seconds and try again\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await apiWithKey(t.app, keys[1]!.key, 'GET', '/api/units')).statusCode).toBe(200);
    // The people of the company are not counted with the keys.
    expect((await api(t, s.cookie, 'GET', '/api/units')).statusCode).toBe(200);
  });
});
