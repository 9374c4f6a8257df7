/**
 * Cost analysis and status charts over a known ledger: exact costs per unit and per day, periods
 * cut at the right instants, transfers not counted as usage, money without float error.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';

const NOW = new Date('2026-06-30T12:00:00Z');

describe.each(backends)('reports on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let loft: string;

  /** Stamps the ledger rows written by `action` (still dated today) with `at`. */
  const at = async (iso: string, action: () => Promise<unknown>) => {
    const res = (await action()) as { statusCode?: number; body?: string };
    if (res?.statusCode && res.statusCode >= 300) throw new Error(`${res.statusCode} ${res.body}`);
    await t.database.db.execute(
      sql`update inventory_logs set created_at = ${iso}::timestamptz where tenant_id = ${s.tenantId} and created_at > '2026-07-01'`,
    );
  };

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'reports@example.com', [
      { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 6.5 },
      { name: 'Pods', category: 'Kitchen', minimum_threshold: 5, count_cost: 0.1 },
      { name: 'Soap', category: 'Bath', minimum_threshold: 1, count_cost: 0.2 },
    ]);
    const { Towel: towel, Pods: pods, Soap: soap } = s.itemIds as Record<string, string>;
    await at('2026-04-01T00:00:00Z', () =>
      api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, {
        inventory: [{ item_id: towel!, quantity: 25 }, { item_id: pods!, quantity: 15 }, { item_id: soap!, quantity: 5 }],
      }),
    );
    await at('2026-04-01T00:00:00Z', async () => {
      const res = await api(t, s.cookie, 'POST', '/api/units', {
        name: 'Loft', address: '9 Main', garage_id: s.garageId,
        inventory: [{ item_id: towel!, quantity: 6 }],
      });
      loft = res.json().id;
      return res;
    });
    await at('2026-04-01T00:00:00Z', () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: pods!, quantity: 20 }));
    const beach = s.unitId;
    const consume = (unit: string, item: string) => api(t, s.cookie, 'POST', `/api/units/${unit}/inventory/${item}/consume`);
    // Outside the month: 5 pods on May 1st.
    for (let i = 0; i < 5; i++) await at('2026-05-01T08:00:00Z', () => consume(beach, pods!));
    // A stocktake at the Loft finds a towel missing on June 10th (within the month, not the week).
    await at('2026-06-10T00:00:00Z', () => api(t, s.cookie, 'POST', `/api/units/${loft}/inventory/${towel!}/consume`));
    // Two towels used at the Loft on June 25th at midnight (within the week).
    for (let i = 0; i < 2; i++) await at('2026-06-25T00:00:00Z', () => consume(loft, towel!));
    // June 29th at the Beach House: 3 pods and, at the last second of the day, 1 soap.
    for (let i = 0; i < 3; i++) await at('2026-06-29T10:00:00Z', () => consume(beach, pods!));
    await at('2026-06-29T10:00:00Z', () => api(t, s.cookie, 'POST', `/api/units/${beach}/inventory`, { item_id: soap!, quantity: 2 }));
    await at('2026-06-29T23:59:59Z', () => consume(beach, soap!));
    // A restock (transfer) is not usage.
    await at('2026-06-29T11:00:00Z', () => api(t, s.cookie, 'POST', `/api/units/${loft}/inventory/${towel!}/transfer`, { quantity: 1 }));
    // A later price change does not reprice history.
    await api(t, s.cookie, 'PATCH', `/api/items/${towel}`, { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 10 });
    // The June 10th row is a negative count rather than a consumption.
    await t.database.db.execute(
      sql`update inventory_logs set type = 'count' where tenant_id = ${s.tenantId} and created_at = '2026-06-10T00:00:00Z'`,
    );
    t.setNow(NOW);
  });
  afterAll(() => t.close());

  const costs = (query: string) => api(t, s.cookie, 'GET', `/api/reports/costs?${query}`);

  it('Last Week: the 7 days before now, per UTC day with zeros, per unit', async () => {
    const res = await costs('period=week');
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.start).toBe('2026-06-23T12:00:00.000Z');
    expect(r.end).toBe('2026-06-30T12:00:00.000Z');
    expect(r.total_cost).toBe(13.5);
    expect(r.total_items).toBe(6);
    expect(r.trend).toEqual([
      { date: '2026-06-23', total_cost: 0, total_items: 0 },
      { date: '2026-06-24', total_cost: 0, total_items: 0 },
      { date: '2026-06-25', total_cost: 13, total_items: 2 },
      { date: '2026-06-26', total_cost: 0, total_items: 0 },
      { date: '2026-06-27', total_cost: 0, total_items: 0 },
      { date: '2026-06-28', total_cost: 0, total_items: 0 },
      { date: '2026-06-29', total_cost: 0.5, total_items: 4 },
      { date: '2026-06-30', total_cost: 0, total_items: 0 },
    ]);
    expect(r.units).toEqual([
      { unit_id: loft, unit_name: 'Loft', period_cost: 13, week_cost: 13, month_cost: 19.5 },
      { unit_id: s.unitId, unit_name: 'Beach House', period_cost: 0.5, week_cost: 0.5, month_cost: 0.5 },
    ]);
  });

  it('Last Month: the 30 days before now, including negative counts', async () => {
    const r = (await costs('period=month')).json();
    expect(r.start).toBe('2026-05-31T12:00:00.000Z');
    expect(r.trend).toHaveLength(31);
    expect(r.trend.find((d: { date: string }) => d.date === '2026-06-10')).toEqual({ date: '2026-06-10', total_cost: 6.5, total_items: 1 });
    expect(r.total_cost).toBe(20);
    expect(r.units.map((u: { period_cost: number }) => u.period_cost)).toEqual([19.5, 0.5]);
  });

  it('Custom Range: whole UTC days, end date included to its last instant; messages for bad ranges', async () => {
    const may = (await costs('period=custom&start=2026-05-01&end=2026-05-01')).json();
    expect(may).toMatchObject({ start: '2026-05-01T00:00:00.000Z', end: '2026-05-02T00:00:00.000Z', total_cost: 0.5, total_items: 5 });
    const lastSecond = (await costs('period=custom&start=2026-06-29&end=2026-06-29')).json();
    expect(lastSecond.total_cost).toBe(0.5);
    expect(lastSecond.trend).toEqual([{ date: '2026-06-29', total_cost: 0.5, total_items: 4 }]);
    const missing = await costs('period=custom&start=2026-05-01');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('Please select both start and end dates');
    const reversed = await costs('period=custom&start=2026-06-02&end=2026-06-01');
    expect(reversed.json().error.message).toBe('Start date must be before end date');
  });

  it('status bars: units by threshold, garages by the fixed buckets', async () => {
    const r = (await api(t, s.cookie, 'GET', '/api/reports/status')).json();
    // Garage after the transfers: towel 25-6... counted 25, restock 1 -> 24 (> 20), pods 15 (low bucket), soap 5 (critical bucket).
    expect(r.garages).toEqual([{ id: s.garageId, name: 'Main Storage', sufficient: 1, low: 1, critical: 1 }]);
    const beach = r.units.find((u: { id: string }) => u.id === s.unitId);
    // Beach House: towel 0 (critical), pods 20-5-3 = 12 (> 5 sufficient), soap 1 (<= 1 low).
    expect(beach).toMatchObject({ sufficient: 1, low: 1, critical: 1 });
  });

  it('is behind the expired-trial gate', async () => {
    t.setNow(new Date('2027-01-01T00:00:00Z'));
    expect((await costs('period=week')).statusCode).toBe(402);
    t.setNow(NOW);
  });
});
