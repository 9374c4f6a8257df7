/**
 * The Hostaway import through the API (docs/product.md "Import from Hostaway"), against the fake
 * Hostaway on loopback: connecting, encryption at rest, listings page by page with token renewal,
 * 429 backoff, bad answers and timeouts, the import within the unit limit, re-imports skipped,
 * and who may call it.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { makeListings, startFakeHostaway, type FakeHostaway } from '../../test/fake-hostaway';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

const SECRET = 'hostaway-client-secret-42';

describe.each(backends)('Hostaway import on %s', (backend) => {
  let fake: FakeHostaway;
  let t: TestApp;
  let s: StockTenant;
  const listings = makeListings(23);
  listings[4]!.name = 'x'.repeat(5000);
  listings[5]!.name = 'Tab\tand\u0000NUL';

  const listingsOf = async (cookie = s.cookie) => api(t, cookie, 'GET', '/api/hostaway/listings');
  const connectAs = (cookie: string, client_id = '777', client_secret = SECRET) =>
    api(t, cookie, 'PUT', '/api/hostaway/connection', { client_id, client_secret });

  beforeAll(async () => {
    fake = await startFakeHostaway({ accounts: [{ clientId: '777', clientSecret: SECRET, listings, reservations: [] }], rateLimit: 1000 });
    t = await createTestApp(backend, { env: { HOSTAWAY_API_BASE: fake.url, HOSTAWAY_PAGE_SIZE: '10', HOSTAWAY_TIMEOUT_MS: '500' } });
    s = await stockTenant(t, 'owner@example.com');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'normal';
    fake.resetRateLimit();
  });

  it('refuses wrong credentials and stores nothing; fetching before connecting has no token', async () => {
    const wrong = await connectAs(s.cookie, '777', 'not-the-secret');
    expect(wrong.statusCode).toBe(502);
    expect(wrong.json().error.message).toMatch(/^Failed to get access token\./);
    expect((await api(t, s.cookie, 'GET', '/api/hostaway/connection')).json()).toMatchObject({ connected: false, account_id: null });
    expect((await listingsOf()).json().error).toEqual({ code: 'CONFLICT', message: 'No access token available' });
    const bad = await api(t, s.cookie, 'PUT', '/api/hostaway/connection', { client_id: 'abc', client_secret: 'x\u0000' });
    expect(bad.statusCode).toBe(400);
  });

  it('says "Invalid token response" when the token answer is not JSON, and bounds a slow Hostaway', async () => {
    fake.mode = 'malformed';
    expect((await connectAs(s.cookie)).json().error.message).toBe('Invalid token response');
    fake.mode = 'slow';
    fake.delayMs = 1500;
    const started = Date.now();
    const slow = await connectAs(s.cookie);
    expect(slow.json().error.message).toBe('Failed to get access token. Hostaway did not answer within 0.5 seconds.');
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('connects, keeps the secret and token encrypted, and shows the account', async () => {
    expect((await connectAs(s.cookie)).statusCode).toBe(204);
    expect((await api(t, s.cookie, 'GET', '/api/hostaway/connection')).json()).toMatchObject({ connected: true, account_id: '777' });
    const rows = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from provider_credentials`);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(SECRET);
    expect(stored).toContain('777');
    // The fake's tokens are 48 hex digits: none is stored as such.
    expect(stored).not.toMatch(/[0-9a-f]{48}/);
  });

  it('fetches every listing page by page, cleans names and addresses, and renews an expired token once', async () => {
    fake.expireTokens();
    const before = fake.calls.length;
    const res = await listingsOf();
    expect(res.statusCode).toBe(200);
    const got = res.json() as { external_id: string; name: string; address: string; imported: boolean }[];
    expect(got).toHaveLength(23);
    const calls = fake.calls.slice(before).map((c) => `${c.status} ${c.path}${c.query.size ? `?${c.query}` : ''}`);
    expect(calls).toEqual([
      '403 /v1/listings?limit=10&offset=0',
      '200 /v1/accessTokens',
      '200 /v1/listings?limit=10&offset=0',
      '200 /v1/listings?limit=10&offset=10',
      '200 /v1/listings?limit=10&offset=20',
    ]);
    expect(got[4]!.name).toHaveLength(200);
    expect(got[5]!.name).toBe('Tab and NUL');
    expect(got[0]!.address).toBe('1001 Ocean Drive, Miami, FL, 33139, US');
    expect(got[1]!.address).toBe('1002 Ocean Drive, Miami, FL 33139, US');
    expect(got[6]!.address).toBe('No address provided');
    expect(got.every((l) => !l.imported)).toBe(true);
  }, 10_000);

  it('waits out a 429 and answers a bad listings page with a clear error', async () => {
    const limited = await startFakeHostaway({ accounts: [{ clientId: '1', clientSecret: 'x', listings: makeListings(3), reservations: [] }], rateLimit: 2, rateWindowMs: 800 });
    const t2 = await createTestApp('pglite', { env: { HOSTAWAY_API_BASE: limited.url } });
    try {
      const other = await stockTenant(t2, 'limited@example.com');
      expect((await api(t2, other.cookie, 'PUT', '/api/hostaway/connection', { client_id: '1', client_secret: 'x' })).statusCode).toBe(204);
      const first = await api(t2, other.cookie, 'GET', '/api/hostaway/listings');
      const second = await api(t2, other.cookie, 'GET', '/api/hostaway/listings');
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(limited.calls.some((c) => c.status === 429)).toBe(true);
      limited.mode = 'malformed';
      const bad = await api(t2, other.cookie, 'GET', '/api/hostaway/listings');
      expect(bad.json().error).toEqual({ code: 'PROVIDER_ERROR', message: 'Failed to fetch listings. Hostaway answered something other than the documented JSON.' });
      limited.mode = 'down';
      const down = await api(t2, other.cookie, 'GET', '/api/hostaway/listings');
      expect(down.json().error).toEqual({ code: 'PROVIDER_ERROR', message: 'Failed to fetch listings. Hostaway answered 500.' });
    } finally {
      await t2.close();
      await limited.close();
    }
  }, 20_000);

  it('imports the selection into a garage with stock rows at 0, skips what is imported, and refuses an empty selection', async () => {
    const got = (await listingsOf()).json() as { external_id: string; name: string; address: string }[];
    const pick = got.slice(0, 3).map(({ external_id, name, address }) => ({ external_id, name, address }));
    expect((await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: [] })).json().error.issues[0].message).toBe(
      'Please select at least one listing',
    );
    const res = await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: [...pick, pick[0]] });
    expect(res.json()).toEqual({ imported: 3, skipped: 1 });
    const units = (await api(t, s.cookie, 'GET', '/api/units')).json() as { name: string; external_id?: string; garage_id: string | null; inventory: { quantity: number }[] }[];
    const imported = units.filter((u) => pick.some((p) => p.name === u.name));
    expect(imported).toHaveLength(3);
    for (const u of imported) {
      expect(u.garage_id).toBe(s.garageId);
      expect(u.inventory.map((i) => i.quantity)).toEqual([0, 0]);
    }
    const [movements] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from inventory_logs where type = 'initial' and note = 'Imported from Hostaway'`);
    expect(movements!.n).toBe(6);
    expect(await ledgerMismatches(t)).toEqual([]);

    const again = await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: pick });
    expect(again.json().error).toEqual({ code: 'CONFLICT', message: 'All selected listings have already been imported for this tenant' });
    const marked = (await listingsOf()).json() as { imported: boolean }[];
    expect(marked.filter((l) => l.imported)).toHaveLength(3);
    const mixed = await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: got.slice(2, 4).map(({ external_id, name, address }) => ({ external_id, name, address })) });
    expect(mixed.json()).toEqual({ imported: 1, skipped: 1 });
    const foreignGarage = await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: randomUUID(), listings: got.slice(5, 6).map(({ external_id, name, address }) => ({ external_id, name, address })) });
    expect(foreignGarage.statusCode).toBe(404);
  });

  it('refuses a selection larger than the plan has room for, saying how many fit, and saves nothing', async () => {
    const [before] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from units where tenant_id = ${s.tenantId}`);
    const many = Array.from({ length: 60 }, (_, i) => ({ external_id: String(9000 + i), name: `Bulk ${i}`, address: 'Somewhere' }));
    const res = await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: many });
    expect(res.json().error).toEqual({
      code: 'LIMIT_REACHED',
      message: `You have reached the maximum number of units for your plan. Please upgrade to add more. Your plan has room for ${50 - before!.n} more.`,
    });
    const [after] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from units where tenant_id = ${s.tenantId}`);
    expect(after!.n).toBe(before!.n);
  });

  it('is for admins and owners of the company only; another company sees no connection', async () => {
    const memberCookie = await signUpAndSignIn(t, 'member@example.com');
    const me = (await api(t, memberCookie, 'GET', '/api/me')).json() as { user: { id: string } };
    await t.database.db.execute(sql`insert into memberships (tenant_id, id, user_id, role) values (${s.tenantId}, ${randomUUID()}, ${me.user.id}, 'member')`);
    for (const [method, url, body] of [
      ['GET', '/api/hostaway/listings', undefined],
      ['PUT', '/api/hostaway/connection', { client_id: '777', client_secret: SECRET }],
      ['POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: [{ external_id: '1020', name: 'n', address: 'a' }] }],
    ] as const) {
      expect((await api(t, memberCookie, method, url, body)).statusCode, url).toBe(403);
    }
    const other = await stockTenant(t, 'other@example.com');
    expect((await api(t, other.cookie, 'GET', '/api/hostaway/connection')).json()).toMatchObject({ connected: false });
    expect((await listingsOf(other.cookie)).json().error.message).toBe('No access token available');
    // A listing imported by the first company is new to the second.
    const res = await api(t, other.cookie, 'POST', '/api/hostaway/imports', { garage_id: other.garageId, listings: [{ external_id: '1001', name: 'Same listing', address: 'a' }] });
    expect(res.json()).toEqual({ imported: 1, skipped: 0 });
    // Its garage is not the first company's to use.
    const cross = await api(t, other.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: [{ external_id: '1002', name: 'n', address: 'a' }] });
    expect(cross.statusCode).toBe(404);
  });

  it('disconnects', async () => {
    expect((await api(t, s.cookie, 'DELETE', '/api/hostaway/connection')).statusCode).toBe(204);
    expect((await api(t, s.cookie, 'GET', '/api/hostaway/connection')).json()).toMatchObject({ connected: false });
    expect(await queryRows(t.database.db, sql`select 1 from provider_credentials where tenant_id = ${s.tenantId}`)).toEqual([]);
  });
});
