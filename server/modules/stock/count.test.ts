/**
 * Count mode (docs/product.md "Screens: Count", docs/decisions/026-stocktake.md): a garage's and a
 * unit's counted lines become their stock in one transaction, one `count` movement per changed
 * row; a count whose rows moved after they were counted is refused whole (409, one issue per
 * moved line); another company's location or item is 404 and writes nothing; counts racing plus
 * presses keep the ledger invariant.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COUNT_LINES } from '../../../common/contracts/count';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

describe.each(backends)('count mode on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const items = [
    { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5 },
    { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 },
    { name: 'Hand Soap', category: 'Bath', minimum_threshold: 2, count_cost: 1.2 },
  ];
  const ledger = (s: StockTenant) =>
    queryRows<{ name: string; source_type: string; type: string; quantity_change: number; note: string | null }>(
      t.database.db,
      sql`select i.name, l.source_type, l.type, l.quantity_change, l.note from inventory_logs l join items i on i.id = l.item_id
          where l.tenant_id = ${s.tenantId} order by l.created_at, i.name`,
    );
  const stock = async (s: StockTenant, kind: 'garage' | 'unit') => {
    const rows = await queryRows<{ name: string; quantity: number }>(
      t.database.db,
      kind === 'garage'
        ? sql`select i.name, s.quantity from garage_inventory s join items i on i.id = s.item_id where s.tenant_id = ${s.tenantId}`
        : sql`select i.name, s.quantity from unit_inventory s join items i on i.id = s.item_id where s.tenant_id = ${s.tenantId}`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.quantity)]));
  };
  const count = (s: StockTenant, kind: 'garage' | 'unit', lines: [string, number, number][], cookie = s.cookie) =>
    api(t, cookie, 'POST', kind === 'garage' ? `/api/garages/${s.garageId}/count` : `/api/units/${s.unitId}/count`, {
      lines: lines.map(([name, expected, counted]) => ({ item_id: s.itemIds[name] ?? name, expected, counted })),
    });

  it('writes one count movement per changed row of a garage, opens new rows, and leaves the right ones alone', async () => {
    const s = await stockTenant(t, 'count-garage@example.com', items);
    expect((await count(s, 'garage', [['Bath Towel', 0, 10], ['Coffee Pods', 0, 40]])).statusCode).toBe(200);
    const before = (await ledger(s)).length;
    const res = await count(s, 'garage', [
      ['Bath Towel', 10, 8],
      ['Coffee Pods', 40, 40],
      ['Hand Soap', 0, 5],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      changed: [
        { item_id: s.itemIds['Bath Towel'], item_name: 'Bath Towel', previous: 10, quantity: 8 },
        { item_id: s.itemIds['Hand Soap'], item_name: 'Hand Soap', previous: 0, quantity: 5 },
      ],
    });
    const written = (await ledger(s)).slice(before);
    expect(written.map((l) => [l.name, l.source_type, l.type, Number(l.quantity_change), l.note])).toEqual([
      ['Bath Towel', 'garage', 'count', -2, 'Stocktake'],
      ['Hand Soap', 'garage', 'count', 5, 'Stocktake'],
    ]);
    expect(await stock(s, 'garage')).toEqual({ 'Bath Towel': 8, 'Coffee Pods': 40, 'Hand Soap': 5 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('counts a unit: a count that finds less is usage, an item counted 0 that it does not hold opens nothing', async () => {
    const s = await stockTenant(t, 'count-unit@example.com', items);
    const noodle = await api(t, s.cookie, 'POST', '/api/items', { name: 'Pool Noodle', category: 'Outdoor' });
    s.itemIds['Pool Noodle'] = noodle.json().id;
    expect((await count(s, 'unit', [['Bath Towel', 0, 6], ['Pool Noodle', 0, 0]])).statusCode).toBe(200);
    const res = await count(s, 'unit', [['Bath Towel', 6, 2]]);
    expect(res.json().changed).toEqual([expect.objectContaining({ item_name: 'Bath Towel', previous: 6, quantity: 2 })]);
    // Setup opened every item at the unit; the noodle counted 0 was not opened.
    expect(await stock(s, 'unit')).toEqual({ 'Bath Towel': 2, 'Coffee Pods': 0, 'Hand Soap': 0 });
    const [usage] = await queryRows<{ used: number }>(
      t.database.db,
      sql`select coalesce(sum(-quantity_change), 0)::int as used from inventory_logs
          where tenant_id = ${s.tenantId} and source_type = 'unit' and quantity_change < 0 and type in ('consumption', 'count')`,
    );
    expect(usage!.used).toBe(4);
    const unit = (await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json();
    expect(unit.inventory[0]).toEqual(expect.objectContaining({ item_name: 'Bath Towel', quantity: 2, status: 'low' }));
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('answers a count where nothing differs with no change and writes nothing', async () => {
    const s = await stockTenant(t, 'count-same@example.com', items);
    await count(s, 'garage', [['Bath Towel', 0, 3]]);
    const before = await ledger(s);
    const res = await count(s, 'garage', [['Bath Towel', 3, 3], ['Coffee Pods', 0, 0]]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ changed: [] });
    expect(await ledger(s)).toEqual(before);
    expect(await stock(s, 'garage')).toEqual({ 'Bath Towel': 3 });
  });

  it('refuses the whole count, naming each line, when stock moved after it was counted', async () => {
    const s = await stockTenant(t, 'count-moved@example.com', items);
    await count(s, 'garage', [['Bath Towel', 0, 10], ['Coffee Pods', 0, 40]]);
    // A restock of 2 to the unit after the garage's towels were counted.
    const towel = s.itemIds['Bath Towel']!;
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 2 })).statusCode).toBe(200);
    const before = await ledger(s);
    const res = await count(s, 'garage', [['Coffee Pods', 40, 35], ['Bath Towel', 10, 9], ['Hand Soap', 0, 1]]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'CONFLICT',
      message: 'The stock of 1 counted item changed while you counted. Nothing was saved: check and save again.',
      issues: [{ path: ['lines', 1, 'expected'], message: 'Bath Towel is now 8, not 10 as when it was counted' }],
    });
    expect(await ledger(s)).toEqual(before);
    expect(await stock(s, 'garage')).toEqual({ 'Bath Towel': 8, 'Coffee Pods': 40 });
    // Counted again from what is there now: saved.
    expect((await count(s, 'garage', [['Coffee Pods', 40, 35], ['Bath Towel', 8, 9], ['Hand Soap', 0, 1]])).statusCode).toBe(200);
    expect(await stock(s, 'garage')).toEqual({ 'Bath Towel': 9, 'Coffee Pods': 35, 'Hand Soap': 1 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses another company’s item, and an unknown location, with 404 and writes nothing', async () => {
    const a = await stockTenant(t, 'count-a@example.com', items);
    const b = await stockTenant(t, 'count-b@example.com', items);
    const before = await ledger(a);
    const beforeB = await ledger(b);
    const foreignItem = b.itemIds['Bath Towel']!;
    for (const kind of ['garage', 'unit'] as const) {
      const res = await count(a, kind, [['Coffee Pods', 0, 4], [foreignItem, 0, 1]]);
      expect(res.statusCode, kind).toBe(404);
      expect(res.json().error.message).toBe('Item not found');
    }
    const other = { ...a, garageId: b.garageId, unitId: b.unitId };
    expect((await count(other, 'garage', [['Coffee Pods', 0, 4]])).statusCode).toBe(404);
    expect((await count(other, 'unit', [['Coffee Pods', 0, 4]])).statusCode).toBe(404);
    expect(await ledger(a)).toEqual(before);
    expect(await ledger(b)).toEqual(beforeB);
    expect(await stock(b, 'garage')).toEqual({});
  });

  it('refuses invalid lines with messages that name the field and the limit', async () => {
    const s = await stockTenant(t, 'count-limits@example.com', items);
    const towel = s.itemIds['Bath Towel']!;
    const refused = async (body: unknown) => {
      const res = await api(t, s.cookie, 'POST', `/api/garages/${s.garageId}/count`, body);
      expect(res.statusCode).toBe(400);
      return res.json().error.message as string;
    };
    expect(await refused({ lines: [{ item_id: towel, expected: 0, counted: 1.5 }] })).toBe('Counted quantity must be a whole number');
    expect(await refused({ lines: [{ item_id: towel, expected: 0, counted: -1 }] })).toBe('Counted quantity must be 0 or more');
    expect(await refused({ lines: [{ item_id: towel, expected: 0, counted: 1_000_001 }] })).toBe('Counted quantity must be at most 1,000,000');
    expect(await refused({ lines: [{ item_id: towel, expected: 2.5, counted: 1 }] })).toBe('Expected quantity must be a whole number');
    expect(await refused({ lines: [] })).toBe('Count at least one item');
    expect(await refused({ lines: [{ item_id: towel, expected: 0, counted: 1 }, { item_id: towel, expected: 0, counted: 2 }] })).toBe(
      'Each item can be counted only once',
    );
    expect(await refused({ lines: [{ item_id: 'towel\u0000', expected: 0, counted: 1 }] })).toBe('Each counted line must name an item');
    const many = Array.from({ length: MAX_COUNT_LINES + 1 }, (_, i) => ({
      item_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      expected: 0,
      counted: 1,
    }));
    expect(await refused({ lines: many })).toBe('A count can have at most 2,000 lines');
    expect(await stock(s, 'garage')).toEqual({});
  });

  it('keeps the ledger invariant when counts race plus presses and transfers on the same rows', async () => {
    const s = await stockTenant(t, 'count-race@example.com', items);
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    await count(s, 'garage', [['Bath Towel', 0, 200], ['Coffee Pods', 0, 200]]);
    await count(s, 'unit', [['Bath Towel', 0, 1], ['Coffee Pods', 0, 1]]);
    const answers: number[] = [];
    for (let round = 0; round < 5; round++) {
      const garage = await stock(s, 'garage');
      const unit = await stock(s, 'unit');
      const requests = [
        // Soap is counted alone, on a row nothing else moves: always saved, while the others race.
        count(s, 'garage', [['Hand Soap', garage['Hand Soap'] ?? 0, 50 + round]]),
        count(s, 'garage', [['Bath Towel', garage['Bath Towel']!, 150 + round], ['Coffee Pods', garage['Coffee Pods']!, 150]]),
        count(s, 'unit', [['Bath Towel', unit['Bath Towel']!, round], ['Coffee Pods', unit['Coffee Pods']!, 2]]),
        ...Array.from({ length: 4 }, () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 })),
        api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${pods}/transfer`, { quantity: 3 }),
        api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`),
      ];
      const [soap, ...others] = await Promise.all(requests);
      expect(soap!.statusCode).toBe(200);
      answers.push(...others.map((r) => r.statusCode));
      expect(await ledgerMismatches(t)).toEqual([]);
    }
    expect((await stock(s, 'garage'))['Hand Soap']).toBe(54);
    expect(answers.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    // A count answered 200 wrote exactly its changes: every count movement is a Stocktake one or the setup's.
    const [odd] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from inventory_logs where tenant_id = ${s.tenantId} and type = 'count' and note is distinct from 'Stocktake'`,
    );
    expect(odd!.n).toBe(0);
  });
});
