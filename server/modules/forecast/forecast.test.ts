/**
 * The restock forecast through the API (docs/product.md "Forecast", "Pick lists") on a known
 * ledger and known stays: usage written with the Unit detail routes, stays inserted as demo
 * reservations, the clock set by the test.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecastAnswer, pickListAnswer } from '../../../common/contracts/forecast';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, onboard, signUpAndSignIn, type TestApp } from '../../test/harness';
import { addStays, company, ok, type Company } from '../../test/forecast-fixtures';
import { ledgerMismatches } from '../../test/stock-fixtures';

/** The company's "now": today is 2026-06-15 in UTC. */
const NOW = new Date('2026-06-15T12:00:00Z');

describe.each(backends)('restock forecast (%s)', (backend) => {
  let t: TestApp;
  let c: Company;
  let towel: string;
  let pods: string;
  let [beach, cliff, dune, elm] = ['', '', '', ''];
  const ledgerSize = async () =>
    (await queryRows<{ n: number; total: number }>(t.database.db, sql`select count(*)::int as n, coalesce(sum(quantity_change), 0)::int as total from inventory_logs`))[0];

  beforeAll(async () => {
    t = await createTestApp(backend);
    t.setNow(NOW);
    c = await company(t, 'forecast@example.com', ['Beach House', 'Cliff Cottage', 'Dune Flat', 'Elm Studio']);
    [towel, pods] = [c.item['Bath Towel']!, c.item['Coffee Pods']!];
    [beach, cliff, dune, elm] = [c.unit['Beach House']!, c.unit['Cliff Cottage']!, c.unit['Dune Flat']!, c.unit['Elm Studio']!];
    // Storage: 100 towels, 10 coffee pods. Towels out to three properties, then used there.
    ok(await api(t, c.cookie, 'PUT', `/api/garages/${c.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 100 }, { item_id: pods, quantity: 10 }] }));
    for (const [unit, moved, used] of [[beach, 12, 8], [cliff, 20, 8], [dune, 20, 4]] as const) {
      ok(await api(t, c.cookie, 'POST', `/api/units/${unit}/inventory/${towel}/transfer`, { quantity: moved }));
      ok(await api(t, c.cookie, 'POST', `/api/units/${unit}/inventory/${towel}/consume`, { quantity: used }));
    }
    // The ledger's rows ten days before now, inside the learning window.
    await t.database.db.execute(sql`update inventory_logs set created_at = '2026-06-05T12:00:00Z' where tenant_id = ${c.tenantId}`);
    // Coffee pods: never used; 3 a stay by default.
    ok(await api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45, usage_per_stay_default: 3 }));
    const past = ['05-01', '05-05', '05-09', '05-13'].map((d) => `2026-${d}`);
    const plus = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    await addStays(t, c.tenantId, [
      // Departed in the learning window: Beach House 4 stays of 2 guests × 2 nights, Cliff Cottage
      // 4 of 4 guests × 2 nights, Dune Flat 1 of 2 guests × 3 nights; Elm Studio none.
      ...past.map((d, k): [string, string, string, string, number] => [beach, `b${k}`, d, plus(d, 2), 2]),
      ...past.map((d, k): [string, string, string, string, number] => [cliff, `c${k}`, d, plus(d, 2), 4]),
      [dune, 'd0', '2026-05-01', '2026-05-04', 2],
      // Not learned from: departed before the window, cancelled.
      [beach, 'old', '2026-03-01', '2026-03-03', 2],
      [beach, 'gone', '2026-05-20', '2026-05-22', 8, 'cancelled'],
      // Upcoming: one under way, two arrivals at Beach House; one at Cliff Cottage, guests unknown.
      [beach, 's1', '2026-06-14', '2026-06-16', 2],
      [beach, 's2', '2026-06-16', '2026-06-18', 2],
      [beach, 's3', '2026-06-18', '2026-06-25', 4],
      [cliff, 'x1', '2026-06-16', '2026-06-18', null],
      [beach, 'late', '2026-07-20', '2026-07-22', 2],
    ]);
  });
  afterAll(() => t.close());

  /** The fixed share of towels the company's properties give (least squares, model.ts): 63/65, stored to 4 decimals. */
  const F = 0.9692;

  it('learns usage per stay and per guest-night, shrinks a property with few stays, falls back to the item default', async () => {
    const forecast = ok<{ rates_learned_at: string }>(await api(t, c.cookie, 'GET', '/api/forecast'));
    expect(forecast.rates_learned_at).toBe(NOW.toISOString());
    const rates = await queryRows<{ unit_id: string; item_id: string; per_stay: string; per_guest_night: string; fixed_share: string; stays: number; guest_nights: number; basis: string }>(
      t.database.db,
      sql`select unit_id, item_id, per_stay, per_guest_night, fixed_share, stays, guest_nights, basis from usage_rates where tenant_id = ${c.tenantId}`,
    );
    const rate = (unit: string, item: string) => {
      const r = rates.find((x) => x.unit_id === unit && x.item_id === item)!;
      return { perStay: Number(r.per_stay), perGuestNight: Number(r.per_guest_night), fixedShare: Number(r.fixed_share), stays: r.stays, guestNights: r.guest_nights, basis: r.basis };
    };
    expect(rates).toHaveLength(8);
    // Beach House: 8 towels over 4 stays and 16 guest-nights: 2 a stay, 0.5 a guest-night.
    expect(rate(beach, towel)).toEqual({ perStay: 2, perGuestNight: 0.5, fixedShare: F, stays: 4, guestNights: 16, basis: 'property' });
    // Cliff Cottage: 8 over 4 stays, 32 guest-nights: 0.25 a guest-night, shrunk halfway to the company's 0.5.
    expect(rate(cliff, towel)).toEqual({ perStay: 2, perGuestNight: 0.375, fixedShare: F, stays: 4, guestNights: 32, basis: 'property' });
    // Dune Flat: one stay of 4 towels, 6 guest-nights: (1 × 4 + 4 × 2) / 5 a stay, (1 × 4/6 + 4 × 0.5) / 5 a guest-night.
    expect(rate(dune, towel)).toEqual({ perStay: 2.4, perGuestNight: 0.5333, fixedShare: F, stays: 1, guestNights: 6, basis: 'property' });
    // Elm Studio has no stays: the company's medians.
    expect(rate(elm, towel)).toEqual({ perStay: 2, perGuestNight: 0.5, fixedShare: F, stays: 0, guestNights: 0, basis: 'company' });
    // Nobody used coffee pods: the item's default, 3 a stay.
    expect(rate(beach, pods)).toMatchObject({ perStay: 3, perGuestNight: 0, fixedShare: 1, basis: 'default' });
    const company = await queryRows<{ item_id: string; per_stay: string; per_guest_night: string; properties: number; basis: string }>(
      t.database.db,
      sql`select item_id, per_stay, per_guest_night, properties, basis from item_usage_rates where tenant_id = ${c.tenantId} order by basis`,
    );
    expect(company.map((r) => [r.item_id, Number(r.per_stay), Number(r.per_guest_night), r.properties, r.basis])).toEqual([
      [towel, 2, 0.5, 3, 'company'],
      [pods, 3, 0, 0, 'default'],
    ]);
  });

  it('lists the properties that would start a check-in short, most urgent first, with the first shortfall and what to bring', async () => {
    // The answer is JSON text assembled from stored parts (lib/json-text.ts): it must be what its schema says.
    const f = forecastAnswer.parse(ok(await api(t, c.cookie, 'GET', '/api/forecast?horizon=7')));
    expect(f).toMatchObject({ today: '2026-06-15', horizon_days: 7, properties_short: 2, properties_with_stays: 2 });
    // Beach House: 4 towels (minimum 3). s1 under way uses 2, s2 2, s3 (4 guests × 7 nights)
    // F·2 + (1 − F)·0.5·28. Before s2: 4 − 2 = 2, enough for s2 but below the minimum. To bring:
    // max(3, use of s3) + 4 − 4 = 3. Coffee: 0 pods, 3 a stay: s2 runs out (0 − 3); 10 + 6 − 0 = 16.
    const s3 = F * 2 + (1 - F) * 0.5 * 28;
    expect(f.properties).toEqual([
      {
        unit_id: beach,
        unit_name: 'Beach House',
        garage_id: c.garageId,
        garage_name: 'Main Storage',
        first_shortfall_date: '2026-06-16',
        stays: 3,
        items: [
          {
            item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen', quantity: 0, minimum_threshold: 10, expected_use: 9,
            shortfall: { stay_id: 's2', arrival_date: '2026-06-16', kind: 'runs_out', projected: -3 }, bring: 16,
          },
          {
            item_id: towel, item_name: 'Bath Towel', category: 'Linen', quantity: 4, minimum_threshold: 3, expected_use: Math.round((4 + s3) * 10) / 10,
            shortfall: { stay_id: 's2', arrival_date: '2026-06-16', kind: 'below_minimum', projected: 2 }, bring: 3,
          },
        ],
      },
      {
        // One item short: after Beach House, which has two.
        unit_id: cliff,
        unit_name: 'Cliff Cottage',
        garage_id: c.garageId,
        garage_name: 'Main Storage',
        first_shortfall_date: '2026-06-16',
        stays: 1,
        items: [
          {
            item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen', quantity: 0, minimum_threshold: 10, expected_use: 3,
            shortfall: { stay_id: 'x1', arrival_date: '2026-06-16', kind: 'runs_out', projected: 0 }, bring: 10,
          },
        ],
      },
    ]);
  });

  it('looks only as far as the horizon', async () => {
    const f = ok<{ properties: { unit_id: string; stays: number; items: { item_name: string; expected_use: number; bring: number }[] }[] }>(
      await api(t, c.cookie, 'GET', '/api/forecast?horizon=3'),
    );
    // s3 arrives on the third day after today: outside a 3-day horizon.
    expect(f.properties[0]).toMatchObject({ unit_id: beach, stays: 2 });
    expect(f.properties[0]!.items.map((i) => [i.item_name, i.expected_use, i.bring])).toEqual([
      ['Coffee Pods', 6, 13],
      ['Bath Towel', 4, 1],
    ]);
    for (const horizon of ['5', '0', 'x', '30']) {
      const res = await api(t, c.cookie, 'GET', `/api/forecast?horizon=${horizon}`);
      expect(res.statusCode, horizon).toBe(400);
      expect(res.json().error.message).toBe('Horizon must be 3, 7 or 14 days');
    }
    expect((await api(t, c.cookie, 'GET', `/api/units/${beach}/forecast?horizon=5`)).statusCode).toBe(400);
  });

  it('sums up the first properties for the dashboard', async () => {
    expect(ok(await api(t, c.cookie, 'GET', '/api/forecast/summary'))).toEqual({
      horizon_days: 7,
      properties_short: 2,
      first: [
        { unit_id: beach, unit_name: 'Beach House', arrival_date: '2026-06-16', kind: 'runs_out', item_names: ['Coffee Pods', 'Bath Towel'], items_short: 2 },
        { unit_id: cliff, unit_name: 'Cliff Cottage', arrival_date: '2026-06-16', kind: 'runs_out', item_names: ['Coffee Pods'], items_short: 1 },
      ],
    });
  });

  it('shows one property: its stays, every item with its rate, the stock before each arrival', async () => {
    const u = ok<{ today: string; stays: unknown[]; items: { item_name: string; rate: unknown; shortfall: unknown }[] }>(
      await api(t, c.cookie, 'GET', `/api/units/${beach}/forecast`),
    );
    expect(u.today).toBe('2026-06-15');
    expect(u.stays).toEqual([
      { id: 's1', source: 'demo', arrival_date: '2026-06-14', departure_date: '2026-06-16', guests: 2, nights: 2, under_way: true },
      { id: 's2', source: 'demo', arrival_date: '2026-06-16', departure_date: '2026-06-18', guests: 2, nights: 2, under_way: false },
      { id: 's3', source: 'demo', arrival_date: '2026-06-18', departure_date: '2026-06-25', guests: 4, nights: 7, under_way: false },
    ]);
    expect(u.items.map((i) => [i.item_name, i.rate])).toEqual([
      ['Bath Towel', { item_id: towel, per_stay: 2, per_guest_night: 0.5, stays: 4, basis: 'property' }],
      ['Coffee Pods', { item_id: pods, per_stay: 3, per_guest_night: 0, stays: 4, basis: 'default' }],
    ]);
    // Elm Studio: no stays, nothing short, its items still listed.
    const elmForecast = ok<{ stays: unknown[]; items: { shortfall: unknown; bring: number; expected_use: number }[] }>(
      await api(t, c.cookie, 'GET', `/api/units/${elm}/forecast?horizon=14`),
    );
    expect(elmForecast.stays).toEqual([]);
    expect(elmForecast.items.map((i) => [i.shortfall, i.bring, i.expected_use])).toEqual([[null, 0, 0], [null, 0, 0]]);
  });

  it('makes tomorrow’s pick list of the garage: what each arriving property needs for a week, and what storage cannot cover', async () => {
    // The answer is JSON text assembled from stored parts (lib/json-text.ts): it must be what its schema says.
    const list = pickListAnswer.parse(ok(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/pick-list`)));
    expect(list).toMatchObject({ date: '2026-06-16', horizon_days: 7, garage_name: 'Main Storage' });
    expect(list.garage_stock).toEqual(expect.arrayContaining([{ item_id: towel, quantity: 48 }, { item_id: pods, quantity: 10 }]));
    expect(list.garage_stock).toHaveLength(2);
    // Storage holds 100 − 12 − 20 − 20 = 48 towels and 10 pods; Beach House takes all 10 pods first.
    expect(list.properties).toEqual([
      {
        unit_id: beach,
        unit_name: 'Beach House',
        address: 'Beach House Road',
        arrivals: [{ stay_id: 's2', arrival_date: '2026-06-16', guests: 2, nights: 2 }],
        lines: [
          { item_id: towel, item_name: 'Bath Towel', category: 'Linen', quantity: 4, bring: 3 },
          { item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen', quantity: 0, bring: 16 },
        ],
        garage_shortfalls: [{ item_id: pods, quantity: 6 }],
      },
      {
        unit_id: cliff,
        unit_name: 'Cliff Cottage',
        address: 'Cliff Cottage Road',
        arrivals: [{ stay_id: 'x1', arrival_date: '2026-06-16', guests: 2, nights: 2 }],
        lines: [{ item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen', quantity: 0, bring: 10 }],
        garage_shortfalls: [{ item_id: pods, quantity: 10 }],
      },
    ]);
    // A day with no arrival lists nobody; the day of s3 lists Beach House only.
    expect(ok<{ properties: unknown[] }>(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/pick-list?date=2026-06-17`)).properties).toEqual([]);
    const s3Day = ok<{ properties: { unit_id: string }[] }>(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/pick-list?date=2026-06-18`));
    expect(s3Day.properties.map((p) => p.unit_id)).toEqual([beach]);
  });

  it('orders for the garage what its properties need over its lead time, plus the minimum, less what it holds', async () => {
    expect(ok(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/order-forecast`))).toEqual({
      garage_id: c.garageId,
      garage_name: 'Main Storage',
      lead_time_days: 7,
      today: '2026-06-15',
      items: [
        { item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen', garage_quantity: 10, minimum_threshold: 10, needed: 26, order: 26 },
        { item_id: towel, item_name: 'Bath Towel', category: 'Linen', garage_quantity: 48, minimum_threshold: 3, needed: 3, order: 0 },
      ],
    });
    // A 2-day lead time covers the arrivals of tomorrow only: Beach House needs 1 towel and 13
    // pods for s2, Cliff Cottage 10 pods.
    const patched = await api(t, c.cookie, 'PATCH', `/api/garages/${c.garageId}`, { name: 'Main Storage', address: '1 Depot Road', lead_time_days: 2 });
    expect(patched.statusCode).toBe(200);
    const short = ok<{ lead_time_days: number; items: { item_name: string; needed: number; order: number }[] }>(
      await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/order-forecast`),
    );
    expect([short.lead_time_days, short.items.map((i) => [i.item_name, i.needed, i.order])]).toEqual([2, [['Coffee Pods', 23, 23], ['Bath Towel', 1, 0]]]);
    // An edit that does not name it keeps it; a year is the most.
    ok(await api(t, c.cookie, 'PATCH', `/api/garages/${c.garageId}`, { name: 'Main Storage', address: '1 Depot Road' }));
    expect(ok<{ lead_time_days: number }>(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/order-forecast`)).lead_time_days).toBe(2);
    const tooLong = await api(t, c.cookie, 'PATCH', `/api/garages/${c.garageId}`, { name: 'Main Storage', address: '1 Depot Road', lead_time_days: 366 });
    expect([tooLong.statusCode, tooLong.json().error.message]).toEqual([400, 'Lead time must be at most 365 days']);
    ok(await api(t, c.cookie, 'PATCH', `/api/garages/${c.garageId}`, { name: 'Main Storage', address: '1 Depot Road', lead_time_days: 7 }));
  });

  it('keeps the learned rates for 6 hours, then learns them again before answering', async () => {
    const learnedAt = async (at: string) => {
      t.setNow(new Date(at));
      return ok<{ rates_learned_at: string }>(await api(t, c.cookie, 'GET', '/api/forecast')).rates_learned_at;
    };
    expect(await learnedAt('2026-06-15T17:59:00Z')).toBe(NOW.toISOString());
    expect(await learnedAt('2026-06-15T18:01:00Z')).toBe('2026-06-15T18:01:00.000Z');
    t.setNow(NOW);
  });

  it('delivers a pick list as restock transfers, all or nothing, and answers the rows to undo it', async () => {
    const before = await ledgerSize();
    const refused = await api(t, c.cookie, 'POST', `/api/units/${beach}/pick-list/deliver`, {
      lines: [{ item_id: towel, quantity: 3 }, { item_id: pods, quantity: 16 }],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Main Storage has only 10 Coffee Pods (16 needed)');
    expect(await ledgerSize()).toEqual(before);

    const delivered = ok<{ movement_ids: string[]; delivered: unknown[] }>(
      await api(t, c.cookie, 'POST', `/api/units/${beach}/pick-list/deliver`, { lines: [{ item_id: towel, quantity: 3 }, { item_id: pods, quantity: 10 }] }),
    );
    expect(delivered.delivered).toEqual([{ item_id: towel, quantity: 3 }, { item_id: pods, quantity: 10 }]);
    expect(delivered.movement_ids).toHaveLength(2);
    const notes = await queryRows<{ type: string; note: string; n: number }>(
      t.database.db,
      sql`select type, note, count(*)::int as n from inventory_logs where tenant_id = ${c.tenantId} and note = 'Pick list' group by type, note`,
    );
    expect(notes).toEqual([{ type: 'restock', note: 'Pick list', n: 4 }]);
    expect(await ledgerMismatches(t)).toEqual([]);
    const stock = async () => {
      const unit = ok<{ inventory: { item_id: string; quantity: number }[] }>(await api(t, c.cookie, 'GET', `/api/units/${beach}`));
      return Object.fromEntries(unit.inventory.map((r) => [r.item_id, r.quantity]));
    };
    expect(await stock()).toEqual({ [towel]: 7, [pods]: 10 });
    // Undo through Unit detail's reverse.
    ok(await api(t, c.cookie, 'POST', `/api/units/${beach}/movements/reverse`, { movement_ids: delivered.movement_ids }));
    expect(await stock()).toEqual({ [towel]: 4, [pods]: 0 });
    expect(await ledgerMismatches(t)).toEqual([]);

    // A property without a garage is refused; so are an empty list and a repeated item.
    ok(await api(t, c.cookie, 'PATCH', `/api/units/${elm}`, { name: 'Elm Studio', address: 'Elm Studio Road', garage_id: null }));
    const noGarage = await api(t, c.cookie, 'POST', `/api/units/${elm}/pick-list/deliver`, { lines: [{ item_id: towel, quantity: 1 }] });
    expect([noGarage.statusCode, noGarage.json().error.message]).toEqual([409, 'No garage assigned to this unit']);
    expect((await api(t, c.cookie, 'POST', `/api/units/${beach}/pick-list/deliver`, { lines: [] })).json().error.message).toBe('Choose at least one line to deliver');
    const twice = await api(t, c.cookie, 'POST', `/api/units/${beach}/pick-list/deliver`, { lines: [{ item_id: towel, quantity: 1 }, { item_id: towel, quantity: 2 }] });
    expect([twice.statusCode, twice.json().error.message]).toEqual([400, 'Each item can appear only once']);
  });

  it('answers 404 for another company’s property or garage', async () => {
    const other = await company(t, 'other-forecast@example.com', ['Pier Loft']);
    for (const url of [`/api/units/${beach}/forecast`, `/api/garages/${c.garageId}/pick-list`, `/api/garages/${c.garageId}/order-forecast`]) {
      expect((await api(t, other.cookie, 'GET', url)).statusCode, url).toBe(404);
    }
    const before = await ledgerSize();
    const res = await api(t, other.cookie, 'POST', `/api/units/${beach}/pick-list/deliver`, { lines: [{ item_id: towel, quantity: 1 }] });
    expect(res.statusCode).toBe(404);
    expect(await ledgerSize()).toEqual(before);
    // The other company sees none of these properties in its forecast.
    expect(ok<{ properties: unknown[] }>(await api(t, other.cookie, 'GET', '/api/forecast')).properties).toEqual([]);
  });

  it('takes "today" and "tomorrow" in the company’s time zone across the end of daylight saving, and a property’s own', async () => {
    // Set up just before, so that its trial runs over these days.
    t.setNow(new Date('2026-10-31T12:00:00Z'));
    const ny = await company(t, 'new-york@example.com', ['Harbor View', 'Lanai']);
    await t.database.db.execute(sql`update tenants set time_zone = 'America/New_York' where id = ${ny.tenantId}`);
    await t.database.db.execute(sql`update units set time_zone = 'Pacific/Honolulu' where id = ${ny.unit['Lanai']!}`);
    await addStays(t, ny.tenantId, [
      [ny.unit['Harbor View']!, 'h1', '2026-11-01', '2026-11-03', 2],
      [ny.unit['Harbor View']!, 'h2', '2026-11-02', '2026-11-04', 2],
      [ny.unit['Lanai']!, 'l1', '2026-10-30', '2026-11-01', 2],
      [ny.unit['Lanai']!, 'l2', '2026-10-31', '2026-11-02', 2],
    ]);
    const pickDay = async (now: string) => {
      t.setNow(new Date(now));
      return ok<{ date: string }>(await api(t, ny.cookie, 'GET', `/api/garages/${ny.garageId}/pick-list`)).date;
    };
    // 23:30 on Oct 31 (EDT, UTC−4): tomorrow is Nov 1. 00:30 on Nov 1: tomorrow is Nov 2.
    expect(await pickDay('2026-11-01T03:30:00Z')).toBe('2026-11-01');
    expect(ok<{ today: string }>(await api(t, ny.cookie, 'GET', '/api/forecast')).today).toBe('2026-10-31');
    expect(await pickDay('2026-11-01T04:30:00Z')).toBe('2026-11-02');
    // Nov 1 has 25 hours: at 04:30 UTC on Nov 2 it is still Nov 1 (23:30 EST, UTC−5).
    expect(await pickDay('2026-11-02T04:30:00Z')).toBe('2026-11-02');
    expect(ok<{ today: string }>(await api(t, ny.cookie, 'GET', '/api/forecast')).today).toBe('2026-11-01');

    // 04:00 on Nov 1 in New York is 23:00 on Oct 31 in Honolulu: Lanai's today is Oct 31, so l2
    // arrives today (not under way) and l1 is under way.
    t.setNow(new Date('2026-11-01T09:00:00Z'));
    const lanai = ok<{ today: string; stays: { id: string; under_way: boolean }[] }>(await api(t, ny.cookie, 'GET', `/api/units/${ny.unit['Lanai']!}/forecast`));
    expect(lanai.today).toBe('2026-10-31');
    expect(lanai.stays.map((s) => [s.id, s.under_way])).toEqual([['l1', true], ['l2', false]]);
    const harbor = ok<{ today: string; stays: { id: string; under_way: boolean }[] }>(await api(t, ny.cookie, 'GET', `/api/units/${ny.unit['Harbor View']!}/forecast`));
    expect(harbor.today).toBe('2026-11-01');
    expect(harbor.stays.map((s) => [s.id, s.under_way])).toEqual([['h1', false], ['h2', false]]);

    // The pick list's day: the company's today or later, at most 60 days ahead, a real date.
    const day = async (date: string) => {
      const res = await api(t, ny.cookie, 'GET', `/api/garages/${ny.garageId}/pick-list?date=${date}`);
      return res.statusCode === 200 ? 200 : [res.statusCode, res.json().error.message];
    };
    expect(await day('2026-11-01')).toBe(200);
    expect(await day('2026-10-31')).toEqual([400, 'Date must be today or later']);
    expect(await day('2026-12-31')).toBe(200);
    expect(await day('2027-01-01')).toEqual([400, 'Date must be at most 60 days ahead']);
    expect(await day('2026-02-30')).toEqual([400, 'Date must be a real date (YYYY-MM-DD)']);
    t.setNow(NOW);
  });
});

describe.each(backends)('default usage per stay of an item (%s)', (backend) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    cookie = await signUpAndSignIn(t, 'items-usage@example.com');
    await onboard(t, cookie);
  });
  afterAll(() => t.close());

  it('is kept with 2 decimals, left as it is when an edit does not name it, cleared by null, limited', async () => {
    const created = await api(t, cookie, 'POST', '/api/items', { name: 'Toilet Paper', category: 'Bath', usage_per_stay_default: 1.5 });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(created.json().usage_per_stay_default).toBe(1.5);
    const renamed = ok<{ usage_per_stay_default: number | null }>(await api(t, cookie, 'PATCH', `/api/items/${id}`, { name: 'Toilet Rolls', category: 'Bath' }));
    expect(renamed.usage_per_stay_default).toBe(1.5);
    const cleared = ok<{ usage_per_stay_default: number | null }>(await api(t, cookie, 'PATCH', `/api/items/${id}`, { name: 'Toilet Rolls', category: 'Bath', usage_per_stay_default: null }));
    expect(cleared.usage_per_stay_default).toBeNull();
    const listed = ok<{ name: string; usage_per_stay_default: number | null }[]>(await api(t, cookie, 'GET', '/api/items'));
    expect(listed.map((i) => [i.name, i.usage_per_stay_default])).toEqual([['Bath Towel', null], ['Toilet Rolls', null]]);
    for (const [value, message] of [
      [1.234, 'Usage per stay can have at most 2 decimals'],
      [-1, 'Usage per stay must be 0 or more'],
      [100_001, 'Usage per stay must be at most 100,000'],
    ] as const) {
      const res = await api(t, cookie, 'PATCH', `/api/items/${id}`, { name: 'Toilet Rolls', category: 'Bath', usage_per_stay_default: value });
      expect([res.statusCode, res.json().error.message]).toEqual([400, message]);
    }
  });
});
