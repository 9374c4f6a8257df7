/**
 * The forecast's read model (projections.ts, docs/decisions/037-forecast-read-model.md): after
 * every kind of change a stored projection depends on, the Forecast screen and the pick lists
 * answer what they answer when every projection is computed afresh; and so they do after plus
 * presses and reads that run at the same time. A projection stored by another version of the
 * model is never served. Random histories of changes and reads: projections.property.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forecastAnswer, pickListAnswer } from '../../../common/contracts/forecast';
import { pgArray, queryRows } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { addStays, company, ok, type Company } from '../../test/forecast-fixtures';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches } from '../../test/stock-fixtures';
import { FORECAST_MODEL_VERSION } from './projections';
import { computeCompanyForecast } from './service';

/** Today is 2026-06-15 in UTC. */
const NOW = new Date('2026-06-15T12:00:00Z');

describe.each(backends)('forecast read model (%s)', (backend) => {
  let t: TestApp;
  let c: Company;
  let [towel, pods, beach, cliff] = ['', '', '', ''];

  /** What the screens read: the forecast at every horizon, the summary, and the pick lists of the next days. */
  const answers = async () => ({
    forecasts: await Promise.all([3, 7, 14].map(async (h) => forecastAnswer.parse(ok(await api(t, c.cookie, 'GET', `/api/forecast?horizon=${h}`))))),
    summary: ok(await api(t, c.cookie, 'GET', '/api/forecast/summary')),
    pickLists: await Promise.all(
      ['2026-06-16', '2026-06-17', '2026-06-18'].map(async (day) =>
        pickListAnswer.parse(ok(await api(t, c.cookie, 'GET', `/api/garages/${c.garageId}/pick-list?date=${day}`))),
      ),
    ),
  });
  /** The same, every projection computed afresh. */
  const fresh = async () => {
    await t.database.db.execute(sql`delete from unit_projections`);
    return answers();
  };
  const stored = async () =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from unit_projections where tenant_id = ${c.tenantId}`))[0]!.n;
  const changes = async () =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from forecast_changes where tenant_id = ${c.tenantId}`))[0]!.n;

  /** Uses one of `item` at `unit`, recorded at `at` (the ledger stamps the real clock's time). */
  const useToday = async (unit: string, item: string, at: string) => {
    const res = await api(t, c.cookie, 'POST', `/api/units/${unit}/inventory/${item}/consume`, { quantity: 1 });
    const { movement_ids } = ok<{ movement_ids: string[] }>(res);
    await t.database.db.execute(sql`update inventory_logs set created_at = ${at}::timestamptz where tenant_id = ${c.tenantId} and id = any(${pgArray(movement_ids)}::uuid[])`);
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp(backend);
    t.setNow(NOW);
    c = await company(t, 'read-model@example.com', ['Beach House', 'Cliff Cottage']);
    [towel, pods, beach, cliff] = [c.item['Bath Towel']!, c.item['Coffee Pods']!, c.unit['Beach House']!, c.unit['Cliff Cottage']!];
    ok(await api(t, c.cookie, 'PUT', `/api/garages/${c.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 60 }, { item_id: pods, quantity: 40 }] }));
    ok(await api(t, c.cookie, 'POST', `/api/units/${beach}/inventory/${towel}/transfer`, { quantity: 6 }));
    ok(await api(t, c.cookie, 'POST', `/api/units/${cliff}/inventory/${towel}/transfer`, { quantity: 5 }));
    ok(await api(t, c.cookie, 'PATCH', `/api/items/${towel}`, { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5, usage_per_stay_default: 2 }));
    ok(await api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45, usage_per_stay_default: 3 }));
    await addStays(t, c.tenantId, [
      // Departing today, their usage not recorded yet; c0 departs tomorrow.
      [beach, 'b0', '2026-06-13', '2026-06-15', 2],
      [cliff, 'c0', '2026-06-14', '2026-06-16', 2],
      [beach, 'b1', '2026-06-16', '2026-06-18', 2],
      [beach, 'b2', '2026-06-18', '2026-06-21', 3],
      [cliff, 'c1', '2026-06-17', '2026-06-19', null],
      [cliff, 'c2', '2026-06-25', '2026-06-27', 2],
    ]);
  });
  afterAll(() => t.close());

  it('stores each property’s projection once, reads it while current, and consumes what changed', async () => {
    const first = await answers();
    // Two properties × (3 horizons + 3 pick-list days whose properties arrive that day).
    expect(await stored()).toBeGreaterThanOrEqual(6);
    expect(await changes()).toBe(0);
    expect(first.forecasts[1]!.properties.map((p) => p.unit_name)).toEqual(['Beach House', 'Cliff Cottage']);
    expect(await answers()).toEqual(first);
    expect(await fresh()).toEqual(first);
  });

  it('serves no projection stored by another version of the model, and stores the current one in its place', async () => {
    const current = await answers();
    const kept = await stored();
    // Rows of an earlier model (0: kept from before versions were stored) and of a later one, with
    // parts this model never stores: served, they would show in every answer.
    await t.database.db.execute(sql`update unit_projections
      set model_version = case when unit_id = ${beach} then 0 else ${FORECAST_MODEL_VERSION + 1}::int end, stays = 99, items_short = 0,
        first_shortfall_date = null, first_runs_out = null, first_item_id = null, short_json = '[]', pick_json = '[]', brings = '[]'
      where tenant_id = ${c.tenantId}`);
    expect(await answers()).toEqual(current);
    const versions = await queryRows<{ model_version: number; n: number }>(
      t.database.db,
      sql`select model_version, count(*)::int as n from unit_projections where tenant_id = ${c.tenantId} group by model_version`,
    );
    expect(versions).toEqual([{ model_version: FORECAST_MODEL_VERSION, n: kept }]);
  });

  it('follows every change a projection depends on', async () => {
    const before = await answers();
    const steps: [string, () => Promise<unknown>][] = [
      ['a plus press', () => api(t, c.cookie, 'POST', `/api/units/${beach}/inventory/${pods}/transfer`, { quantity: 4 })],
      ['a use', () => api(t, c.cookie, 'POST', `/api/units/${cliff}/inventory/${towel}/consume`, { quantity: 2 })],
      // Usage recorded today at Beach House (03:00 UTC): the stay leaving today no longer counts.
      ['a use recorded today', () => useToday(beach, pods, '2026-06-15T03:00:00Z')],
      // Los Angeles is still on June 15 at noon UTC, but its day started after that use: the stay counts again.
      ['the company’s time zone', () => api(t, c.cookie, 'PUT', '/api/company/time-zone', { time_zone: 'America/Los_Angeles' })],
      ['the company’s time zone back', () => api(t, c.cookie, 'PUT', '/api/company/time-zone', { time_zone: 'UTC' })],
      ['a minimum threshold', () => api(t, c.cookie, 'PATCH', `/api/items/${towel}`, { name: 'Bath Towel', category: 'Linen', minimum_threshold: 5, count_cost: 6.5 })],
      ['a default use per stay', () => api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45, usage_per_stay_default: 5 })],
      ['an item renamed', () => api(t, c.cookie, 'PATCH', `/api/items/${pods}`, { name: 'Aroma Pods', category: 'Drinks', minimum_threshold: 10, count_cost: 0.45 })],
      ['typical guests', () => api(t, c.cookie, 'PUT', `/api/units/${cliff}/calendar`, { typical_guests: 6 })],
      ['a new stay', () => addStays(t, c.tenantId, [[cliff, 'c3', '2026-06-20', '2026-06-23', 4]])],
      [
        'a stay cancelled',
        () => withTenant(t.database.db, c.tenantId, (tx) => tx.execute(sql`update reservations set status = 'cancelled' where tenant_id = ${c.tenantId} and id = 'b2'`)),
      ],
      ['a stock row removed', () => api(t, c.cookie, 'DELETE', `/api/units/${beach}/inventory/${pods}`)],
    ];
    let last = before;
    for (const [what, change] of steps) {
      await answers(); // projections stored before the change
      const res = (await change()) as { statusCode?: number; body?: string } | undefined;
      if (res?.statusCode !== undefined && res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
      const after = await answers();
      expect(after, what).not.toEqual(last);
      expect(after, what).toEqual(await fresh());
      last = after;
    }
  });

  it('computes again on a new day and after the rates are learned again', async () => {
    const today = await answers();
    t.setNow(new Date('2026-06-16T12:00:00Z'));
    try {
      const tomorrow = await answers();
      expect(tomorrow.forecasts[1]!.today).toBe('2026-06-16');
      expect(tomorrow).toEqual(await fresh());
      // Rates learned again (their age passes 6 hours): every projection is computed with them.
      t.setNow(new Date('2026-06-16T19:00:00Z'));
      const later = await answers();
      expect(later.forecasts[1]!.rates_learned_at).toBe('2026-06-16T19:00:00.000Z');
      expect(later).toEqual(await fresh());
    } finally {
      t.setNow(NOW);
    }
    // Back to the first day: rates learned after "now" are learned again, as they were then.
    expect(await answers()).toEqual(today);
  });

  it('agrees with a fresh computation after plus presses and reads at the same time', async () => {
    await answers();
    const presses = Array.from({ length: 24 }, (_, k) =>
      api(t, c.cookie, 'POST', `/api/units/${k % 2 ? beach : cliff}/inventory/${towel}/${k % 3 ? 'transfer' : 'consume'}`, { quantity: 1 }),
    );
    const reads = Array.from({ length: 12 }, (_, k) =>
      api(t, c.cookie, 'GET', k % 2 ? '/api/forecast?horizon=7' : `/api/garages/${c.garageId}/pick-list?date=2026-06-17`),
    );
    const settled = await Promise.all([...presses, ...reads]);
    // A press may be refused when nothing is left to use; a read never fails.
    expect(settled.slice(presses.length).map((r) => r.statusCode)).toEqual(reads.map(() => 200));
    expect(await ledgerMismatches(t)).toEqual([]);
    const now = await answers();
    expect(now).toEqual(await fresh());
    expect(await changes()).toBe(0);
  });

  it('computes every property’s projection ahead of the reads, as the rates job does after learning', async () => {
    await t.database.db.execute(sql`delete from unit_projections`);
    await computeCompanyForecast(t.database.db, c.tenantId, NOW);
    const ahead = await queryRows<{ unit_id: string; end_day: string }>(
      t.database.db,
      sql`select unit_id, end_day::text as end_day from unit_projections where tenant_id = ${c.tenantId} order by unit_id`,
    );
    expect(ahead).toEqual([beach, cliff].sort().map((unit_id) => ({ unit_id, end_day: '2026-06-22' })));
    const forecast = ok(await api(t, c.cookie, 'GET', '/api/forecast?horizon=7'));
    expect(await stored()).toBe(2);
    await t.database.db.execute(sql`delete from unit_projections`);
    expect(ok(await api(t, c.cookie, 'GET', '/api/forecast?horizon=7'))).toEqual(forecast);
  });

  it('keeps no change rows for properties without projections', async () => {
    await t.database.db.execute(sql`delete from unit_projections`);
    ok(await api(t, c.cookie, 'POST', `/api/units/${beach}/inventory/${towel}/transfer`, { quantity: 1 }));
    expect(await changes()).toBeGreaterThan(0);
    await answers();
    expect(await changes()).toBe(0);
  });
});
