/**
 * The restock forecast through the API (docs/product.md "Forecast", "Pick lists") on a known
 * ledger and known stays: usage written with the Unit detail routes, stays inserted as demo
 * reservations, the clock set by the test.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecastAnswer, pickListAnswer, SERVICE_LEVEL_MESSAGE, unitForecastAnswer, type UnitForecastAnswer } from '../../../common/contracts/forecast';
import { lineShortfalls } from '../../../common/pick-list';
import { pgArray, queryRows } from '../../db/client';
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
    const company = await queryRows<{ item_id: string; per_stay: string; per_guest_night: string; properties: number; basis: string; dispersion: string }>(
      t.database.db,
      sql`select item_id, per_stay, per_guest_night, properties, basis, dispersion from item_usage_rates where tenant_id = ${c.tenantId} order by basis`,
    );
    expect(company.map((r) => [r.item_id, Number(r.per_stay), Number(r.per_guest_night), r.properties, r.basis])).toEqual([
      [towel, 2, 0.5, 3, 'company'],
      [pods, 3, 0, 0, 'default'],
    ]);
    // The towels' dispersion, by weekly blocks from 12 weeks before today (2026-03-23): the stays
    // departing in May expect 2 towels each at Beach House (May 3, 7 | 11, 15: blocks 5, 6, 7, 7),
    // 2.0308 at Cliff Cottage (the same blocks) and 2.4246 at Dune Flat (May 4: block 6), and
    // their blocks recorded none: every use was recorded on June 5, in a block without stays,
    // which says nothing. Σ(0 − expected)² / Σ expected = 54.62 / 18.55 = 2.945. Coffee pods
    // were never used: 1.
    expect(Number(company[0]!.dispersion)).toBeCloseTo(2.945, 3);
    expect(Number(company[1]!.dispersion)).toBe(1);
  });

  it('lists the properties that would start a check-in short, most urgent first, with the first shortfall and what to bring', async () => {
    // The answer is JSON text assembled from stored parts (lib/json-text.ts): it must be what its schema says.
    const f = forecastAnswer.parse(ok(await api(t, c.cookie, 'GET', '/api/forecast?horizon=7')));
    expect(f).toMatchObject({ today: '2026-06-15', horizon_days: 7, properties_short: 2, properties_running_out: 2, properties_with_stays: 2 });
    // Counted over every property short, listed or not; here all are listed.
    expect(f.properties_running_out).toBe(f.properties.filter((p) => p.items.some((i) => i.shortfall?.kind === 'runs_out')).length);
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
        past_stays: 4,
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
        past_stays: 4,
        items: [
          {
            item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen', quantity: 0, minimum_threshold: 10, expected_use: 3,
            shortfall: { stay_id: 'x1', arrival_date: '2026-06-16', kind: 'runs_out', projected: 0 }, bring: 10,
          },
        ],
      },
    ]);
  });

  it('says per property how many past stays its usage is learned from', async () => {
    // A company of its own: Harbour Loft with 4 past stays, Quay House 1, Reef Cabin none; each
    // starts tomorrow's check-in short of coffee pods (none there, minimum 10).
    const h = await company(t, 'history@example.com', ['Harbour Loft', 'Quay House', 'Reef Cabin']);
    const [loft, quay, reef] = [h.unit['Harbour Loft']!, h.unit['Quay House']!, h.unit['Reef Cabin']!];
    const hTowel = h.item['Bath Towel']!;
    ok(await api(t, h.cookie, 'PUT', `/api/garages/${h.garageId}/inventory`, { inventory: [{ item_id: hTowel, quantity: 40 }] }));
    for (const unit of [loft, quay]) {
      ok(await api(t, h.cookie, 'POST', `/api/units/${unit}/inventory/${hTowel}/transfer`, { quantity: 10 }));
      ok(await api(t, h.cookie, 'POST', `/api/units/${unit}/inventory/${hTowel}/consume`, { quantity: 4 }));
    }
    await t.database.db.execute(sql`update inventory_logs set created_at = '2026-06-05T12:00:00Z' where tenant_id = ${h.tenantId}`);
    await addStays(t, h.tenantId, [
      [loft, 'l0', '2026-05-01', '2026-05-03', 2],
      [loft, 'l1', '2026-05-05', '2026-05-07', 2],
      [loft, 'l2', '2026-05-09', '2026-05-11', 2],
      [loft, 'l3', '2026-05-13', '2026-05-15', 2],
      [quay, 'q0', '2026-05-01', '2026-05-04', 2],
      [loft, 'l4', '2026-06-16', '2026-06-18', 2],
      [quay, 'q1', '2026-06-16', '2026-06-18', 2],
      [reef, 'r1', '2026-06-16', '2026-06-18', 2],
    ]);
    const f = forecastAnswer.parse(ok(await api(t, h.cookie, 'GET', '/api/forecast')));
    expect(Object.fromEntries(f.properties.map((p) => [p.unit_name, p.past_stays]))).toEqual({ 'Harbour Loft': 4, 'Quay House': 1, 'Reef Cabin': 0 });
    // Unit detail reads the same count, and the rates it shows agree.
    for (const [unitId, stays] of [[loft, 4], [quay, 1], [reef, 0]] as const) {
      const unit = unitForecastAnswer.parse(ok(await api(t, h.cookie, 'GET', `/api/units/${unitId}/forecast`)));
      expect(unit.past_stays).toBe(stays);
      expect(Math.max(...unit.items.filter((i) => i.rate.basis === 'property' || i.rate.basis === 'company').map((i) => i.rate.stays))).toBe(stays);
    }

    // A company that learned no usage from stays (every item uses its default or nothing): no count.
    const none = await company(t, 'no-usage@example.com', ['Pier Loft']);
    await addStays(t, none.tenantId, [[none.unit['Pier Loft']!, 'p1', '2026-06-16', '2026-06-18', 2]]);
    const g = forecastAnswer.parse(ok(await api(t, none.cookie, 'GET', '/api/forecast')));
    expect(g.properties.map((p) => [p.unit_name, p.past_stays])).toEqual([['Pier Loft', null]]);
    expect(unitForecastAnswer.parse(ok(await api(t, none.cookie, 'GET', `/api/units/${none.unit['Pier Loft']}/forecast`))).past_stays).toBeNull();
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
    const u = unitForecastAnswer.parse(ok(await api(t, c.cookie, 'GET', `/api/units/${beach}/forecast`)));
    expect(u.today).toBe('2026-06-15');
    expect(u.stays).toEqual([
      { id: 's1', source: 'demo', arrival_date: '2026-06-14', departure_date: '2026-06-16', guests: 2, nights: 2, under_way: true },
      { id: 's2', source: 'demo', arrival_date: '2026-06-16', departure_date: '2026-06-18', guests: 2, nights: 2, under_way: false },
      { id: 's3', source: 'demo', arrival_date: '2026-06-18', departure_date: '2026-06-25', guests: 4, nights: 7, under_way: false },
    ]);
    expect(u.items.map((i) => [i.item_name, i.rate])).toEqual([
      ['Bath Towel', { item_id: towel, per_stay: 2, per_guest_night: 0.5, fixed_share: F, stays: 4, dispersion: 2.945, basis: 'property' }],
      ['Coffee Pods', { item_id: pods, per_stay: 3, per_guest_night: 0, fixed_share: 1, stays: 4, dispersion: 1, basis: 'default' }],
    ]);
    // A client reproduces every figure from the answer's own fields: a stay of g guests and n
    // nights uses f·per_stay + (1 − f)·per_guest_night·g·n; an item's expected use is the sum over
    // the stays, the stock before an arrival the stock less the use of the stays before it.
    const use = (rate: UnitForecastAnswer['items'][number]['rate'], stay: UnitForecastAnswer['stays'][number]) =>
      rate.fixed_share * rate.per_stay + (1 - rate.fixed_share) * rate.per_guest_night * (stay.guests * stay.nights);
    const oneDecimal = (n: number) => Math.round(n * 10) / 10;
    const sum = (uses: number[]) => uses.reduce((a, b) => a + b, 0);
    // Both items start s2 short (the forecast's list above).
    expect(u.items.map((i) => i.shortfall?.stay_id)).toEqual(['s2', 's2']);
    for (const item of u.items) {
      const uses = u.stays.map((stay) => use(item.rate, stay));
      expect(item.expected_use, item.item_name).toBe(oneDecimal(sum(uses)));
      const before = u.stays.findIndex((stay) => stay.id === item.shortfall!.stay_id);
      expect(item.shortfall!.projected, item.item_name).toBe(oneDecimal(item.quantity - sum(uses.slice(0, before))));
    }
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
    // The lines' items, named once, in name order.
    expect(list.items).toEqual([
      { item_id: towel, item_name: 'Bath Towel', category: 'Linen' },
      { item_id: pods, item_name: 'Coffee Pods', category: 'Kitchen' },
    ]);
    // Storage holds 100 − 12 − 20 − 20 = 48 towels and 10 pods; Beach House takes all 10 pods first.
    // The lines bring for the company's 95 %: at each stay's expected use Beach House would take
    // 3 towels and 16 pods, a 39 % chance that its arrivals find both; Cliff Cottage's 10 pods
    // (its minimum) already make it 99 %.
    const service = (pieces: number, expectedPieces: number) => ({
      level: 95,
      pieces,
      chance: expect.closeTo(pieces === expectedPieces ? 0.995 : 0.953, 3),
      expected_pieces: expectedPieces,
      expected_chance: expect.closeTo(pieces === expectedPieces ? 0.995 : 0.393, 3),
    });
    expect(list.properties).toEqual([
      {
        unit_id: beach,
        unit_name: 'Beach House',
        address: 'Beach House Road',
        arrivals: [{ stay_id: 's2', arrival_date: '2026-06-16', guests: 2, nights: 2 }],
        lines: [
          { item_id: towel, quantity: 4, bring: 11 },
          { item_id: pods, quantity: 0, bring: 22 },
        ],
        service: service(33, 19),
      },
      {
        unit_id: cliff,
        unit_name: 'Cliff Cottage',
        address: 'Cliff Cottage Road',
        arrivals: [{ stay_id: 'x1', arrival_date: '2026-06-16', guests: 2, nights: 2 }],
        lines: [{ item_id: pods, quantity: 0, bring: 10 }],
        service: service(10, 10),
      },
    ]);
    // What storage cannot cover, its stock taken by the properties in their order.
    const short = lineShortfalls(list);
    expect([short(beach, towel), short(beach, pods), short(cliff, pods)]).toEqual([0, 12, 10]);
    // A day with no arrival lists nobody; the day of s3 lists Beach House only.
    expect(ok<{ properties: unknown[] }>(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/pick-list?date=2026-06-17`)).properties).toEqual([]);
    const s3Day = ok<{ properties: { unit_id: string }[] }>(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/pick-list?date=2026-06-18`));
    expect(s3Day.properties.map((p) => p.unit_id)).toEqual([beach]);
  });

  it('brings for the service level the company chose, which no other company changes or sees', async () => {
    const beachAt = async (cookie = c.cookie) =>
      pickListAnswer.parse(ok(await api(t, cookie, 'GET', `/api/garages/${c.garageId}/pick-list`))).properties.find((p) => p.unit_id === beach)!;
    const levelOf = async (cookie: string) => ok<{ service_level: number }>(await api(t, cookie, 'GET', '/api/forecast')).service_level;
    const other = await company(t, 'other-level@example.com', ['Harbour Loft']);
    const bad = await api(t, c.cookie, 'PUT', '/api/forecast/service-level', { service_level: 96 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(SERVICE_LEVEL_MESSAGE);
    expect(await levelOf(c.cookie)).toBe(95);
    const pieces: Record<number, number> = {};
    try {
      for (const level of [80, 95, 99]) {
        expect(ok(await api(t, c.cookie, 'PUT', '/api/forecast/service-level', { service_level: level }))).toEqual({ service_level: level });
        const { service, lines } = await beachAt();
        expect(service).toMatchObject({ level, expected_pieces: 19 });
        expect(service!.chance).toBeGreaterThanOrEqual(level / 100);
        expect(lines.reduce((sum, l) => sum + l.bring, 0)).toBe(service!.pieces);
        pieces[level] = service!.pieces;
      }
      expect(pieces[80]).toBeLessThan(pieces[95]!);
      expect(pieces[95]).toBeLessThan(pieces[99]!);
      // An item's own level is a floor for it: at the company's 80 %, coffee pods at 99 % get more
      // pieces than at the company's level, and the property's chance rises with them.
      ok(await api(t, c.cookie, 'PUT', '/api/forecast/service-level', { service_level: 80 }));
      const podsAt = (p: Awaited<ReturnType<typeof beachAt>>) => p.lines.find((l) => l.item_id === pods)!.bring;
      const companyLevel = await beachAt();
      const podsBody = { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 };
      expect((await api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { ...podsBody, service_level: 96 })).statusCode).toBe(400);
      expect(ok(await api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { ...podsBody, service_level: 99 }))).toMatchObject({ service_level: 99, usage_per_stay_default: 3 });
      try {
        const own = await beachAt();
        expect(podsAt(own)).toBeGreaterThan(podsAt(companyLevel));
        expect(own.service!.chance).toBeGreaterThan(companyLevel.service!.chance);
      } finally {
        ok(await api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { ...podsBody, service_level: null }));
      }
      expect(podsAt(await beachAt())).toBe(podsAt(companyLevel));
      ok(await api(t, c.cookie, 'PUT', '/api/forecast/service-level', { service_level: 99 }));
      // The other company keeps its own level, and setting it leaves this one's alone.
      expect(await levelOf(other.cookie)).toBe(95);
      ok(await api(t, other.cookie, 'PUT', '/api/forecast/service-level', { service_level: 80 }));
      expect(await levelOf(c.cookie)).toBe(99);
      expect((await beachAt()).service!.level).toBe(99);
    } finally {
      ok(await api(t, c.cookie, 'PUT', '/api/forecast/service-level', { service_level: 95 }));
    }
  });

  it('counts a stay departing today as under way until usage is recorded at the property today', async () => {
    // Cleaners record a stay's usage at checkout: until some is recorded at Sea View today, the
    // stock does not show what the stay leaving today used. No usage in the learning window: each
    // stay uses the items' defaults, 2 towels and 3 coffee pods.
    const s = await company(t, 'checkout@example.com', ['Sea View']);
    const [sea, sTowel, sPods] = [s.unit['Sea View']!, s.item['Bath Towel']!, s.item['Coffee Pods']!];
    ok(await api(t, s.cookie, 'PATCH', `/api/items/${sTowel}`, { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5, usage_per_stay_default: 2 }));
    ok(await api(t, s.cookie, 'PATCH', `/api/items/${sPods}`, { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45, usage_per_stay_default: 3 }));
    ok(await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: sTowel, quantity: 20 }, { item_id: sPods, quantity: 40 }] }));
    ok(await api(t, s.cookie, 'POST', `/api/units/${sea}/inventory/${sTowel}/transfer`, { quantity: 6 }));
    await addStays(t, s.tenantId, [
      [sea, 'leaving', '2026-06-12', '2026-06-15', 2],
      [sea, 'coming', '2026-06-16', '2026-06-18', 2],
    ]);
    /**
     * What tomorrow's pick list would bring at each stay's expected use, the property's stays and
     * each item's expected use, read through the API.
     */
    const read = async () => {
      const list = pickListAnswer.parse(ok(await api(t, s.cookie, 'GET', `/api/garages/${s.garageId}/pick-list`)));
      const unit = ok<{ stays: { id: string; under_way: boolean }[]; items: { item_name: string; expected_use: number }[] }>(
        await api(t, s.cookie, 'GET', `/api/units/${sea}/forecast`),
      );
      return {
        lines: list.properties.map((p) => p.service?.expected_pieces),
        stays: unit.stays.map((st) => [st.id, st.under_way]),
        used: unit.items.map((i) => [i.item_name, i.expected_use]),
      };
    };
    /** Uses one towel at Sea View, recorded at `at` (the ledger stamps the real clock's time); its movement ids. */
    const useTowel = async (at: string) => {
      const used = ok<{ movement_ids: string[] }>(await api(t, s.cookie, 'POST', `/api/units/${sea}/inventory/${sTowel}/consume`, { quantity: 1 }));
      await t.database.db.execute(sql`update inventory_logs set created_at = ${at}::timestamptz
        where tenant_id = ${s.tenantId} and id = any(${pgArray(used.movement_ids)}::uuid[])`);
      return used.movement_ids;
    };
    // Nothing recorded today: the leaving stay uses its 3 pods before tomorrow's arrival. Pods: 0
    // there, max(10, 3) + 3 = 13 to bring. Towels: 6 − 2 = 4 left for tomorrow, nothing to bring.
    const unrecorded = { lines: [13], stays: [['leaving', true], ['coming', false]], used: [['Bath Towel', 4], ['Coffee Pods', 6]] };
    expect(await read()).toEqual(unrecorded);
    // A towel used yesterday (23:30 UTC, the company's zone) is not today's usage: 5 towels, the same list.
    await useTowel('2026-06-14T23:30:00Z');
    expect(await read()).toEqual(unrecorded);
    // A towel used this morning: the leaving stay's usage is recorded; only tomorrow's arrival counts.
    const today = await useTowel('2026-06-15T07:00:00Z');
    expect(await read()).toEqual({ lines: [10], stays: [['coming', false]], used: [['Bath Towel', 2], ['Coffee Pods', 3]] });
    // Undone, it is no longer usage: the leaving stay counts again.
    ok(await api(t, s.cookie, 'POST', `/api/units/${sea}/movements/reverse`, { movement_ids: today }));
    expect(await read()).toEqual(unrecorded);
    // Tomorrow the stay has departed, whatever was recorded.
    t.setNow(new Date('2026-06-16T06:00:00Z'));
    try {
      const tomorrow = ok<{ stays: { id: string }[] }>(await api(t, s.cookie, 'GET', `/api/units/${sea}/forecast`));
      expect(tomorrow.stays.map((st) => st.id)).toEqual(['coming']);
    } finally {
      t.setNow(NOW);
    }
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
