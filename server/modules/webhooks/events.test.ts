/**
 * The webhook events the product records (docs/product.md "Webhooks"; common/contracts/
 * webhook-events.ts), on both databases, read as the `webhook_events` and `webhook_deliveries`
 * rows the change's transaction wrote: each event with its data when an endpoint listens, nothing
 * when none does, nothing for a refused write, nothing of one company for another's endpoints; on
 * PostgreSQL, a row that 200 concurrent minus taps take through low to critical records
 * `stock.low` once and `stock.critical` once. The calendars are served on loopback
 * (CALENDAR_ALLOW_LOOPBACK, for tests only).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forecastShortEventData, WEBHOOK_EVENT_TYPES, webhookEventData, type WebhookEventType } from '../../../common/contracts/webhook-events';
import { pgTextArray, queryRows } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { openLimits } from '../../lib/limits';
import { makeListings, makeReservations, startFakeHostaway, type FakeHostaway } from '../../test/fake-hostaway';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { MANUAL_REFRESH_LIMIT, refreshCalendars, type CalendarDeps } from '../calendars/service';
import { addLocalDays } from '../stays/local-days';
import { recordForecastShort } from '../forecast/service';
import { recordWebhookEvent } from './record-event';

/** A day `days` from today, UTC (YYYY-MM-DD). */
const dayFromToday = (days: number) => addLocalDays(new Date().toISOString().slice(0, 10), days);

/** An iCal feed of `events` (uid, arrival, departure as YYYY-MM-DD). */
const calendar = (...events: [string, string, string][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN',
    ...events.flatMap(([uid, start, end]) => [
      'BEGIN:VEVENT',
      `UID:${uid}@airbnb.com`,
      `DTSTART;VALUE=DATE:${start.replaceAll('-', '')}`,
      `DTEND;VALUE=DATE:${end.replaceAll('-', '')}`,
      'SUMMARY:Reserved',
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe.each(backends)('webhook events on %s', (backend) => {
  let t: TestApp;
  let a: StockTenant;
  let b: StockTenant;
  let server: Server;
  let base: string;
  let feed = calendar();
  let hostaway: FakeHostaway;
  const listings = makeListings(1, 7001);
  const bookings = makeReservations(listings, new Date(), 70_001);

  /** Gives company `tenantId` an enabled endpoint receiving `events`. */
  const listen = (tenantId: string, events: readonly WebhookEventType[]) =>
    t.database.db.execute(
      sql`insert into webhook_endpoints (tenant_id, url, events, secret_enc) values (${tenantId}, 'https://hooks.example.com/in', ${pgTextArray(events)}::text[], 'sealed')`,
    );
  /** The events recorded for company `tenantId`, oldest first, each with its deliveries. */
  const eventsOf = (tenantId: string) =>
    queryRows<{ type: WebhookEventType; data: Record<string, unknown>; deliveries: number }>(
      t.database.db,
      sql`select e.type, e.data, (select count(*)::int from webhook_deliveries d where d.tenant_id = e.tenant_id and d.event_id = e.id and d.status = 'pending') as deliveries
          from webhook_events e where e.tenant_id = ${tenantId} order by e.created_at, e.id`,
    );
  /** Sets the stock of `item` at company `s`'s property (and gives its storage plenty), without events. */
  const setStock = async (s: StockTenant, item: string, quantity: number) => {
    await t.database.db.execute(sql`update unit_inventory set quantity = ${quantity} where tenant_id = ${s.tenantId} and unit_id = ${s.unitId} and item_id = ${s.itemIds[item]!}`);
    await t.database.db.execute(
      sql`insert into garage_inventory (tenant_id, garage_id, item_id, quantity) select tenant_id, ${s.garageId}, id, 500 from items where tenant_id = ${s.tenantId}
          on conflict (tenant_id, garage_id, item_id) do update set quantity = 500`,
    );
  };
  const minus = (s: StockTenant, item: string, quantity = 1) =>
    api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${s.itemIds[item]!}/consume`, { quantity });
  const parsed = (type: WebhookEventType, data: unknown) => webhookEventData[type].parse(data);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.split('?')[0] === '/feed.ics') res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(feed);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    hostaway = await startFakeHostaway({ accounts: [{ clientId: '77', clientSecret: 'secret', listings, reservations: bookings }], rateLimit: 1000 });
    t = await createTestApp(backend, { env: { CALENDAR_ALLOW_LOOPBACK: 'true', CALENDAR_TIMEOUT_MS: '2000', HOSTAWAY_API_BASE: hostaway.url } });
    a = await stockTenant(t, 'events-a@example.com');
    b = await stockTenant(t, 'events-b@example.com');
  });
  afterAll(async () => {
    await t?.close();
    await hostaway?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  beforeEach(async () => {
    await t.database.db.execute(sql`delete from webhook_endpoints`);
    await t.database.db.execute(sql`delete from webhook_events`);
  });

  it('records stock.low and stock.critical once each as a row worsens into them, and nothing as it stays or improves', async () => {
    await setStock(a, 'Bath Towel', 5);
    await listen(a.tenantId, ['stock.low', 'stock.critical']);
    for (const used of [1, 1, 1, 2]) expect((await minus(a, 'Bath Towel', used)).statusCode).toBe(200); // 4, 3 (low), 2, 0 (critical)
    const plus = await api(t, a.cookie, 'POST', `/api/units/${a.unitId}/inventory/${a.itemIds['Bath Towel']!}/transfer`, { quantity: 1 });
    expect(plus.statusCode, plus.body).toBe(200); // 1: critical to low, an improvement
    const events = await eventsOf(a.tenantId);
    expect(events.map((e) => [e.type, e.deliveries])).toEqual([['stock.low', 1], ['stock.critical', 1]]);
    expect(parsed('stock.low', events[0]!.data)).toEqual({
      location: { type: 'unit', id: a.unitId, name: 'Beach House' },
      item: { id: a.itemIds['Bath Towel'], name: 'Bath Towel' },
      quantity: 3,
      minimum_threshold: 3,
      status: 'low',
    });
    expect(events[1]!.data).toMatchObject({ quantity: 0, status: 'critical' });
  });

  it('records a storage row turning low, and nothing when no endpoint receives the event', async () => {
    const towel = a.itemIds['Bath Towel']!;
    await setStock(a, 'Bath Towel', 0);
    const storageHolds = (quantity: number) =>
      t.database.db.execute(sql`update garage_inventory set quantity = ${quantity} where tenant_id = ${a.tenantId} and garage_id = ${a.garageId} and item_id = ${towel}`);
    const plus = (quantity: number) => api(t, a.cookie, 'POST', `/api/units/${a.unitId}/inventory/${towel}/transfer`, { quantity });
    await storageHolds(5);
    await listen(a.tenantId, ['stock.counted']);
    expect((await plus(2)).statusCode).toBe(200); // storage 5 → 3: low, but no endpoint receives stock.low
    expect(await eventsOf(a.tenantId)).toEqual([]);
    await storageHolds(5);
    await listen(a.tenantId, ['stock.low']);
    expect((await plus(2)).statusCode).toBe(200);
    expect((await eventsOf(a.tenantId)).map((e) => e.data)).toEqual([
      { location: { type: 'garage', id: a.garageId, name: expect.any(String) }, item: { id: towel, name: 'Bath Towel' }, quantity: 3, minimum_threshold: 3, status: 'low' },
    ]);
  });

  it('records stock.counted with the rows a count changed and who counted, and nothing for a refused count', async () => {
    await setStock(a, 'Bath Towel', 6);
    await setStock(a, 'Coffee Pods', 20);
    await listen(a.tenantId, ['stock.counted']);
    const towel = a.itemIds['Bath Towel']!;
    const pods = a.itemIds['Coffee Pods']!;
    const refused = await api(t, a.cookie, 'POST', `/api/units/${a.unitId}/count`, { lines: [{ item_id: towel, expected: 7, counted: 4 }] });
    expect(refused.statusCode).toBe(409);
    expect(await eventsOf(a.tenantId)).toEqual([]);
    const saved = await api(t, a.cookie, 'POST', `/api/units/${a.unitId}/count`, {
      lines: [{ item_id: towel, expected: 6, counted: 4 }, { item_id: pods, expected: 20, counted: 20 }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const events = await eventsOf(a.tenantId);
    expect(events.map((e) => e.type)).toEqual(['stock.counted']);
    expect(parsed('stock.counted', events[0]!.data)).toEqual({
      location: { type: 'unit', id: a.unitId, name: 'Beach House' },
      counted_by: 'events-a@example.com',
      items_changed: 1,
      items: [{ id: towel, name: 'Bath Towel', before: 6, after: 4 }],
    });
  });

  it('records pick_list.delivered with the storage, the property and what moved, and nothing for a refused delivery', async () => {
    await setStock(a, 'Bath Towel', 6);
    await listen(a.tenantId, ['pick_list.delivered']);
    const deliver = (quantity: number) =>
      api(t, a.cookie, 'POST', `/api/units/${a.unitId}/pick-list/deliver`, {
        lines: [{ item_id: a.itemIds['Bath Towel']!, quantity }, { item_id: a.itemIds['Coffee Pods']!, quantity: 2 }],
      });
    expect((await deliver(501)).statusCode).toBe(409);
    expect(await eventsOf(a.tenantId)).toEqual([]);
    const done = await deliver(3);
    expect(done.statusCode, done.body).toBe(200);
    const events = await eventsOf(a.tenantId);
    expect(events.map((e) => e.type)).toEqual(['pick_list.delivered']);
    expect(parsed('pick_list.delivered', events[0]!.data)).toEqual({
      garage: { id: a.garageId, name: expect.any(String) },
      property: { id: a.unitId, name: 'Beach House' },
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      lines: 2,
      pieces: 5,
    });
  });

  it('records stay.created, stay.changed and stay.cancelled as a calendar link is read, and nothing when none listens', async () => {
    const deps: CalendarDeps = {
      db: t.database.db,
      now: () => new Date(),
      feed: { timeoutMs: 2000, maxBytes: 1024 * 1024, allowLoopback: true },
      manualRefreshes: openLimits(t.database.db).limit(MANUAL_REFRESH_LIMIT),
    };
    const [arrival, departure, later] = [dayFromToday(5), dayFromToday(8), dayFromToday(9)];
    feed = calendar(['quiet', dayFromToday(20), dayFromToday(22)]);
    const added = await api(t, a.cookie, 'POST', `/api/units/${a.unitId}/calendar/links`, { url: `${base}/feed.ics` });
    expect(added.statusCode, added.body).toBeLessThan(300);
    expect(await eventsOf(a.tenantId)).toEqual([]);

    await listen(a.tenantId, ['stay.created', 'stay.changed', 'stay.cancelled']);
    feed = calendar(['quiet', dayFromToday(20), dayFromToday(22)], ['new', arrival, departure]);
    await refreshCalendars(deps, a.tenantId, a.unitId);
    feed = calendar(['quiet', dayFromToday(20), dayFromToday(22)], ['new', arrival, later]);
    await refreshCalendars(deps, a.tenantId, a.unitId);
    feed = calendar(['quiet', dayFromToday(20), dayFromToday(22)]);
    await refreshCalendars(deps, a.tenantId, a.unitId);

    const events = await eventsOf(a.tenantId);
    expect(events.map((e) => e.type)).toEqual(['stay.created', 'stay.changed', 'stay.cancelled']);
    const stay = { id: expect.stringMatching(/\/new@airbnb\.com$/), source: 'calendar', property: { id: a.unitId, name: 'Beach House' }, guests: null };
    expect(parsed('stay.created', events[0]!.data)).toEqual({ stay: { ...stay, arrival_date: arrival, departure_date: departure } });
    expect(parsed('stay.changed', events[1]!.data)).toEqual({
      stay: { ...stay, arrival_date: arrival, departure_date: later },
      previous: { property: stay.property, arrival_date: arrival, departure_date: departure, guests: null },
    });
    expect(parsed('stay.cancelled', events[2]!.data)).toEqual({ stay: { ...stay, arrival_date: arrival, departure_date: later } });
  });

  it('records stay.created, stay.changed and stay.cancelled as Hostaway reservations are synced and read again', async () => {
    const c = await stockTenant(t, 'events-hostaway@example.com');
    await listen(c.tenantId, ['stay.created', 'stay.changed', 'stay.cancelled']);
    expect((await api(t, c.cookie, 'PUT', '/api/hostaway/connection', { client_id: '77', client_secret: 'secret' })).statusCode).toBe(204);
    const listing = listings[0]!;
    const imported = await api(t, c.cookie, 'POST', '/api/hostaway/imports', { garage_id: c.garageId, listings: [{ external_id: String(listing.id), name: 'Harbour Flat', address: 'Quay 1' }] });
    expect(imported.statusCode, imported.body).toBe(200);
    const unitId = ((await api(t, c.cookie, 'GET', '/api/units')).json() as { id: string; name: string }[]).find((u) => u.name === 'Harbour Flat')!.id;
    const hook = (await api(t, c.cookie, 'POST', '/api/hostaway/webhook-credentials')).json() as { login: string; password: string };
    // Each payload differs: Hostaway's repeated deliveries are applied once.
    const readAgain = (id: number, n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/hostaway/webhook',
        headers: { authorization: `Basic ${Buffer.from(`${hook.login}:${hook.password}`).toString('base64')}` },
        payload: { object: 'reservation', data: { id }, n },
      });
    // The sync after the import: the one stay ahead ('new'); the cancelled one, the inquiry and the stay that ended send nothing.
    const ahead = bookings.find((r) => r.status === 'new' && !r.isDatesUnspecified)!;
    Object.assign(ahead, { numberOfGuests: 5, updatedOn: '2099-01-01 10:00:00' });
    expect((await readAgain(ahead.id, 1)).statusCode).toBe(200);
    Object.assign(ahead, { status: 'cancelled', updatedOn: '2099-01-02 10:00:00' });
    expect((await readAgain(ahead.id, 2)).statusCode).toBe(200);
    const events = await eventsOf(c.tenantId);
    expect(events.map((e) => e.type)).toEqual(['stay.created', 'stay.changed', 'stay.cancelled']);
    const stay = { id: String(ahead.id), source: 'hostaway', property: { id: unitId, name: 'Harbour Flat' }, arrival_date: ahead.arrivalDate, departure_date: ahead.departureDate };
    expect(parsed('stay.created', events[0]!.data)).toEqual({ stay: { ...stay, guests: 3 } });
    expect(parsed('stay.changed', events[1]!.data)).toEqual({ stay: { ...stay, guests: 5 }, previous: { property: stay.property, arrival_date: stay.arrival_date, departure_date: stay.departure_date, guests: 3 } });
    expect(parsed('stay.cancelled', events[2]!.data)).toEqual({ stay: { ...stay, guests: 5 } });
  });

  it('records forecast.short once a day when a property would start a check-in short, and nothing when none listens', async () => {
    const towel = a.itemIds['Bath Towel']!;
    await t.database.db.execute(sql`update items set usage_per_stay_default = 4 where tenant_id = ${a.tenantId} and id = ${towel}`);
    await setStock(a, 'Bath Towel', 1);
    await t.database.db.execute(
      sql`insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, guests, status)
          values (${a.tenantId}, 'demo', 'short-1', ${a.unitId}, ${dayFromToday(2)}, ${dayFromToday(4)}, 2, 2, 'confirmed')`,
    );
    try {
      expect(await recordForecastShort(t.database.db, a.tenantId, new Date())).toBe(false);
      await listen(a.tenantId, ['forecast.short']);
      expect(await recordForecastShort(t.database.db, a.tenantId, new Date())).toBe(true);
      expect(await recordForecastShort(t.database.db, a.tenantId, new Date())).toBe(false);
      const events = await eventsOf(a.tenantId);
      expect(events.map((e) => e.type)).toEqual(['forecast.short']);
      const data = forecastShortEventData.parse(events[0]!.data);
      expect(data).toMatchObject({ horizon_days: 7, service_level: 95, properties_short: 1 });
      expect(data.properties).toEqual([
        {
          id: a.unitId,
          name: 'Beach House',
          arrival_date: dayFromToday(2),
          chance: expect.any(Number),
          items_short: expect.any(Number),
          items: expect.arrayContaining([{ id: towel, name: 'Bath Towel', quantity: 1, bring: expect.any(Number) }]),
        },
      ]);
      const property = data.properties[0]!;
      expect(property.chance).toBeLessThan(0.95);
      expect(property.items_short).toBe(property.items.length);
      // 4 towels a stay with 1 in stock: at least the 3 more the stay is expected to use.
      expect(property.items.find((i) => i.id === towel)!.bring).toBeGreaterThanOrEqual(3);
    } finally {
      await t.database.db.execute(sql`delete from reservations where tenant_id = ${a.tenantId} and source = 'demo'`);
    }
  });

  it('names in forecast.short a property the expected use covers but the service level does not, and none at a lower level', async () => {
    const towel = a.itemIds['Bath Towel']!;
    await t.database.db.execute(sql`update items set usage_per_stay_default = 4 where tenant_id = ${a.tenantId} and id = ${towel}`);
    await t.database.db.execute(sql`update unit_inventory set quantity = 500 where tenant_id = ${a.tenantId} and unit_id = ${a.unitId}`);
    // 6 towels, the stay expected to use 4: it arrives above the minimum of 1 and leaves 2 at the
    // expected use; a use of 7 or more (about 11 % at a Poisson spread of mean 4) would run out.
    const [before] = await queryRows<{ minimum: number }>(
      t.database.db,
      sql`select item_threshold as minimum from unit_inventory where tenant_id = ${a.tenantId} and unit_id = ${a.unitId} and item_id = ${towel}`,
    );
    await t.database.db.execute(
      sql`update unit_inventory set quantity = 6, item_threshold = 1 where tenant_id = ${a.tenantId} and unit_id = ${a.unitId} and item_id = ${towel}`,
    );
    await t.database.db.execute(
      sql`insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, guests, status)
          values (${a.tenantId}, 'demo', 'level-1', ${a.unitId}, ${dayFromToday(3)}, ${dayFromToday(5)}, 2, 2, 'confirmed')`,
    );
    await listen(a.tenantId, ['forecast.short']);
    try {
      const summary = await api(t, a.cookie, 'GET', '/api/forecast/summary');
      expect(summary.json()).toMatchObject({ properties_short: 0 });
      await t.database.db.execute(sql`update tenants set service_level = 80 where id = ${a.tenantId}`);
      expect(await recordForecastShort(t.database.db, a.tenantId, new Date())).toBe(false);
      await t.database.db.execute(sql`update tenants set service_level = 95 where id = ${a.tenantId}`);
      expect(await recordForecastShort(t.database.db, a.tenantId, new Date())).toBe(true);
      const data = forecastShortEventData.parse((await eventsOf(a.tenantId))[0]!.data);
      expect(data).toMatchObject({ service_level: 95, properties_short: 1 });
      const [property] = data.properties;
      expect(property).toMatchObject({ id: a.unitId, arrival_date: dayFromToday(3), items_short: 1 });
      expect(property!.chance).toBeGreaterThan(0.8);
      expect(property!.chance).toBeLessThan(0.95);
      expect(property!.items).toEqual([{ id: towel, name: 'Bath Towel', quantity: expect.any(Number), bring: expect.any(Number) }]);
      expect(property!.items[0]!.bring).toBeGreaterThan(0);
    } finally {
      await t.database.db.execute(sql`delete from reservations where tenant_id = ${a.tenantId} and source = 'demo'`);
      await t.database.db.execute(sql`update tenants set service_level = 95 where id = ${a.tenantId}`);
      await t.database.db.execute(
        sql`update unit_inventory set item_threshold = ${before!.minimum} where tenant_id = ${a.tenantId} and unit_id = ${a.unitId} and item_id = ${towel}`,
      );
    }
  });

  it('records no event of one company for another company’s endpoints', async () => {
    await listen(b.tenantId, WEBHOOK_EVENT_TYPES);
    await setStock(a, 'Bath Towel', 4);
    expect((await minus(a, 'Bath Towel', 4)).statusCode).toBe(200);
    // Company A's transaction naming company B records nothing: row-level security hides B's endpoints.
    await withTenant(t.database.db, a.tenantId, (tx) => recordWebhookEvent(tx, b.tenantId, 'stock.low', { forged: true }));
    expect(await eventsOf(a.tenantId)).toEqual([]);
    expect(await eventsOf(b.tenantId)).toEqual([]);
  });

  it.runIf(backend === 'postgres')('records stock.low once and stock.critical once under 200 concurrent minus taps', async () => {
    await setStock(a, 'Bath Towel', 200);
    await listen(a.tenantId, ['stock.low', 'stock.critical']);
    const answers = await Promise.all(Array.from({ length: 200 }, () => minus(a, 'Bath Towel')));
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    const [row] = await queryRows<{ quantity: number }>(
      t.database.db,
      sql`select quantity from unit_inventory where tenant_id = ${a.tenantId} and unit_id = ${a.unitId} and item_id = ${a.itemIds['Bath Towel']!}`,
    );
    expect(row!.quantity).toBe(0);
    // Ordered by type: the events' time is their transaction's start, not its commit.
    const events = (await eventsOf(a.tenantId)).map((e) => [e.type, e.data.quantity, e.deliveries]).sort();
    expect(events).toEqual([['stock.critical', 0, 1], ['stock.low', 3, 1]]);
  });
});
