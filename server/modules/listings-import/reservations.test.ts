/**
 * Reservations from Hostaway (docs/product.md "Import from Hostaway"), against the fake Hostaway:
 * the sync after an import (statuses, dates, listings not imported), "Upcoming stays", the
 * webhook (Basic auth, repeated and out-of-order events, unknown listings), and the same sync run
 * as a pg-boss job on the test's own database.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createHostawayClient } from '../../integrations/hostaway';
import { startJobQueue } from '../../jobs/queue';
import { secretBox } from '../../lib/secret-box';
import { dayAfter, makeListings, makeReservations, startFakeHostaway, type FakeHostaway } from '../../test/fake-hostaway';
import { api, APP_URL, backends, createTestApp, TEST_APP_SECRET, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { queuedJobs } from './sync-jobs';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe.each(backends)('Hostaway reservations on %s', (backend) => {
  let fake: FakeHostaway;
  let t: TestApp;
  let s: StockTenant;
  const listings = makeListings(4);
  const reservations = makeReservations(listings, new Date());
  const ofListing = (id: number) => reservations.filter((r) => r.listingMapId === id);
  let unitOf: Record<string, string>;
  let hook: { url: string; login: string; password: string };

  const stays = async (listingId: number) =>
    (await api(t, s.cookie, 'GET', `/api/units/${unitOf[String(listingId)]}/stays`)).json() as { id: number; status: string; guests: number }[];
  const storedCount = async () => (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from reservations`))[0]!.n;

  beforeAll(async () => {
    fake = await startFakeHostaway({ accounts: [{ clientId: '55', clientSecret: 'secret', listings, reservations }], rateLimit: 1000 });
    t = await createTestApp(backend, { env: { HOSTAWAY_API_BASE: fake.url, HOSTAWAY_PAGE_SIZE: '4' } });
    s = await stockTenant(t, 'stays@example.com');
    expect((await api(t, s.cookie, 'PUT', '/api/hostaway/connection', { client_id: '55', client_secret: 'secret' })).statusCode).toBe(204);
    // Three of the four listings imported: the fourth's reservations are not the company's.
    const pick = listings.slice(0, 3).map((l) => ({ external_id: String(l.id), name: l.name, address: 'Somewhere' }));
    expect((await api(t, s.cookie, 'POST', '/api/hostaway/imports', { garage_id: s.garageId, listings: pick })).statusCode).toBe(200);
    const units = (await api(t, s.cookie, 'GET', '/api/units')).json() as { id: string; name: string }[];
    unitOf = Object.fromEntries(listings.slice(0, 3).map((l) => [String(l.id), units.find((u) => u.name === l.name)!.id]));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('syncs after the import, paging by afterId in the date window, keeping imported listings only and no undated rows', async () => {
    const pages = fake.calls.filter((c) => c.path === '/v1/reservations');
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.query.get('afterId')).toBe('0');
    expect(pages[1]!.query.get('afterId')).toBe(String(reservations[3]!.id));
    expect(pages[0]!.query.get('departureStartDate')).toBe(dayAfter(new Date(), -90));
    expect(pages[0]!.query.get('arrivalEndDate')).toBe(dayAfter(new Date(), 60));
    // Per listing: new, cancelled, inquiry and a past modified stay are stored; the undated one is not.
    expect(await storedCount()).toBe(3 * 4);
    const connection = (await api(t, s.cookie, 'GET', '/api/hostaway/connection')).json();
    expect(connection.last_synced_at).not.toBeNull();
    expect(connection.last_sync_error).toBeNull();
  });

  it('shows as upcoming stays only the statuses that hold the calendar, within 14 days', async () => {
    const got = await stays(listings[0]!.id);
    expect(got.map((r) => r.status)).toEqual(['new']);
    expect(got[0]).toMatchObject({ id: String(ofListing(listings[0]!.id)[0]!.id), source: 'hostaway', guests: 3 });
  });

  it('refuses a webhook with wrong Basic auth (401, nothing changed)', async () => {
    const res = await api(t, s.cookie, 'POST', '/api/hostaway/webhook-credentials');
    hook = res.json();
    expect(hook).toMatchObject({ url: `${APP_URL}/api/hostaway/webhook`, login: s.tenantId });
    expect(hook.password.length).toBeGreaterThan(30);
    expect((await api(t, s.cookie, 'GET', '/api/hostaway/connection')).json().webhook).toEqual({ url: hook.url, login: s.tenantId });
    const target = ofListing(listings[0]!.id)[0]!;
    target.status = 'cancelled';
    for (const authorization of [undefined, basic(s.tenantId, 'wrong'), basic('not-a-uuid', hook.password), 'Bearer x']) {
      const r = await t.app.inject({ method: 'POST', url: '/api/hostaway/webhook', headers: authorization ? { authorization } : {}, payload: { object: 'reservation', data: { id: target.id } } });
      expect(r.statusCode).toBe(401);
    }
    expect((await stays(listings[0]!.id)).map((r) => r.status)).toEqual(['new']);
    target.status = 'new';
  });

  it('applies a changed reservation read again from Hostaway; repeats and older copies change nothing', async () => {
    const target = ofListing(listings[1]!.id)[0]!;
    const send = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/hostaway/webhook', headers: { authorization: basic(hook.login, hook.password) }, payload: payload as object });
    Object.assign(target, { numberOfGuests: 6, updatedOn: '2099-01-01 10:00:00' });
    // The payload's own fields are not trusted: only the id is used.
    const event = { object: 'reservation', event: 'reservation.updated', data: { id: target.id, numberOfGuests: 99 } };
    expect((await send(event)).statusCode).toBe(200);
    expect((await stays(listings[1]!.id))[0]!.guests).toBe(6);
    // The same delivery again is not applied again, even though Hostaway's copy changed meanwhile.
    target.numberOfGuests = 7;
    expect((await send(event)).statusCode).toBe(200);
    expect((await stays(listings[1]!.id))[0]!.guests).toBe(6);
    // An older copy (out of order) does not replace the newer one; the nested payload shape is accepted.
    Object.assign(target, { status: 'cancelled', updatedOn: '2098-01-01 10:00:00' });
    expect((await send({ payload: { data: { id: target.id } }, event: 'reservation.updated' })).statusCode).toBe(200);
    expect((await stays(listings[1]!.id)).map((r) => r.status)).toEqual(['new']);
    // A newer cancellation does.
    Object.assign(target, { status: 'cancelled', updatedOn: '2099-02-01 10:00:00' });
    expect((await send({ object: 'reservation', data: { id: target.id }, n: 2 })).statusCode).toBe(200);
    expect(await stays(listings[1]!.id)).toEqual([]);
  });

  it("a booking the property's calendar link also lists counts once, from Hostaway, while Hostaway holds it", async () => {
    const target = ofListing(listings[2]!.id)[0]!;
    const unitId = unitOf[String(listings[2]!.id)]!;
    await t.database.db.execute(sql`
      insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, status, channel)
      values (${s.tenantId}, 'calendar', ${`${unitId}/same@airbnb.com`}, ${unitId}, ${target.arrivalDate}, ${target.departureDate}, 2, 'confirmed', 'Airbnb')`);
    const send = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/hostaway/webhook', headers: { authorization: basic(hook.login, hook.password) }, payload: payload as object });
    const linkStatus = async () => (await queryRows<{ status: string }>(t.database.db, sql`select status from reservations where source = 'calendar' and unit_id = ${unitId}`))[0]!.status;
    Object.assign(target, { updatedOn: '2099-03-01 10:00:00' });
    expect((await send({ object: 'reservation', data: { id: target.id }, n: 'match' })).statusCode).toBe(200);
    expect(await linkStatus()).toBe('duplicate');
    expect((await stays(listings[2]!.id)).map((r) => r.id)).toEqual([String(target.id)]);
    Object.assign(target, { status: 'cancelled', updatedOn: '2099-03-02 10:00:00' });
    expect((await send({ object: 'reservation', data: { id: target.id }, n: 'unmatch' })).statusCode).toBe(200);
    expect(await linkStatus()).toBe('confirmed');
    expect((await stays(listings[2]!.id)).map((r) => r.id)).toEqual([`${unitId}/same@airbnb.com`]);
  });

  it('acknowledges events for unknown listings and reservations, and other objects, storing nothing', async () => {
    const before = await storedCount();
    const foreign = ofListing(listings[3]!.id)[0]!;
    for (const payload of [{ object: 'reservation', data: { id: foreign.id } }, { object: 'reservation', data: { id: 999_999 } }, { object: 'listing', data: { id: 1 } }, 'not json object']) {
      const r = await t.app.inject({ method: 'POST', url: '/api/hostaway/webhook', headers: { authorization: basic(hook.login, hook.password), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      expect(r.statusCode).toBe(200);
    }
    expect(await storedCount()).toBe(before);
  });

  it('another company cannot read these stays', async () => {
    const other = await stockTenant(t, 'other-stays@example.com');
    expect((await api(t, other.cookie, 'GET', `/api/units/${unitOf[String(listings[0]!.id)]}/stays`)).statusCode).toBe(404);
    expect((await api(t, other.cookie, 'GET', '/api/hostaway/connection')).json().webhook).toBeNull();
  });

  it('runs the sync as a pg-boss job on this database, which queues the next run', async () => {
    await t.database.db.execute(sql`delete from reservations`);
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    try {
      const deps = {
        db: t.database.db,
        client: createHostawayClient({ baseUrl: fake.url, timeoutMs: 2000, pageSize: 100 }),
        box: secretBox(TEST_APP_SECRET, 'provider-credentials'),
        now: () => new Date(),
        tokenSettleMs: 0,
      };
      const jobs = await queuedJobs(queue, deps, 30);
      await jobs.syncSoon(s.tenantId);
      await jobs.syncSoon(s.tenantId);
      // The scheduled next run waiting does not swallow a sync asked for now (after an import).
      for (let i = 0; i < 60 && (await storedCount()) === 0; i++) await sleep(250);
      expect(await storedCount()).toBeGreaterThan(0);
      const states = await queryRows<{ state: string; later: boolean }>(
        t.database.db,
        sql`select state::text, start_after > now() + interval '25 minutes' as later from pgboss.job where name = 'hostaway-sync' order by created_on`,
      );
      expect(states.some((j) => j.later && j.state === 'created')).toBe(true);
      expect(states.filter((j) => !j.later).length).toBe(1);
      await t.database.db.execute(sql`delete from reservations`);
      await jobs.syncSoon(s.tenantId);
      for (let i = 0; i < 60 && (await storedCount()) === 0; i++) await sleep(250);
      expect(await storedCount()).toBeGreaterThan(0);
      const [scheduled] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from pgboss.job where name = 'hostaway-sync' and start_after > now() + interval '25 minutes'`);
      expect(scheduled!.n).toBe(1);
    } finally {
      await queue.stop();
    }
  }, 30_000);
});
