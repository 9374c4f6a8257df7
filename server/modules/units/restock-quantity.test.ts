/**
 * Restock by quantity and "Restock to minimum" (docs/product.md "Stock movements and statuses"):
 * stock moved from the unit's garage by one transfer, refused whole when the garage is short (also
 * for an item the unit does not hold yet, Add Manually from the garage), filled up to each item's
 * minimum threshold as far as the garage holds; and minus by quantity, floored at 0.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUANTITY } from '../../../common/contracts/fields';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

describe.each(backends)('restock by quantity and to minimum on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const setGarage = async (s: StockTenant, lines: Record<string, number>) => {
    const inventory = Object.entries(lines).map(([name, quantity]) => ({ item_id: s.itemIds[name]!, quantity }));
    expect((await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory })).statusCode).toBe(200);
  };
  const addToUnit = async (s: StockTenant, name: string, quantity: number) =>
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: s.itemIds[name]!, quantity })).statusCode).toBe(200);
  const quantities = async (s: StockTenant) => {
    const rows = await queryRows<{ kind: string; name: string; quantity: number }>(
      t.database.db,
      sql`select 'unit' as kind, i.name, s.quantity from unit_inventory s join items i on i.id = s.item_id where s.tenant_id = ${s.tenantId}
          union all
          select 'garage', i.name, g.quantity from garage_inventory g join items i on i.id = g.item_id where g.tenant_id = ${s.tenantId}`,
    );
    return Object.fromEntries(rows.map((r) => [`${r.kind} ${r.name}`, Number(r.quantity)]));
  };
  const restockLedger = (s: StockTenant) =>
    queryRows<{ transfer_id: string; unit_id: string | null; garage_id: string | null; quantity_change: number }>(
      t.database.db,
      sql`select transfer_id, unit_id, garage_id, quantity_change from inventory_logs
          where tenant_id = ${s.tenantId} and type = 'restock' order by transfer_id, quantity_change`,
    );

  it('moves n from the garage in one transfer and answers like the plus button', async () => {
    const s = await stockTenant(t, 'quantity@example.com');
    await setGarage(s, { 'Bath Towel': 10 });
    const towel = s.itemIds['Bath Towel']!;
    const res = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 4 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unit_quantity: 4, garage_quantity: 6, status: 'sufficient', movement_ids: [expect.any(String)] });
    const ledger = await restockLedger(s);
    const [unitSide] = await queryRows<{ id: string }>(t.database.db, sql`select id from inventory_logs where tenant_id = ${s.tenantId} and type = 'restock' and unit_id is not null`);
    expect(res.json().movement_ids).toEqual([unitSide!.id]);
    expect(ledger.map((r) => [r.garage_id, r.unit_id, r.quantity_change])).toEqual([
      [s.garageId, null, -4],
      [null, s.unitId, 4],
    ]);
    expect(ledger[0]!.transfer_id).toBe(ledger[1]!.transfer_id);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses a quantity that is not a whole number from 1 to the limit, naming the field, and writes nothing', async () => {
    const s = await stockTenant(t, 'refused@example.com');
    await setGarage(s, { 'Bath Towel': 10 });
    const url = `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']!}/transfer`;
    const before = await quantities(s);
    for (const [quantity, message] of [
      [0, 'Quantity must be at least 1'],
      [-1, 'Quantity must be at least 1'],
      [1.5, 'Quantity must be a whole number'],
      [MAX_QUANTITY + 1, 'Quantity must be at most 1,000,000'],
      [2 ** 31, 'Quantity must be at most 1,000,000'],
    ] as const) {
      const res = await api(t, s.cookie, 'POST', url, { quantity });
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().error.message, String(quantity)).toBe(message);
    }
    expect((await api(t, s.cookie, 'POST', url, { quantity: '2' })).statusCode).toBe(400);
    expect((await api(t, s.cookie, 'POST', url, {})).statusCode).toBe(400);
    expect(await quantities(s)).toEqual(before);
    expect(await restockLedger(s)).toEqual([]);
  });

  it('refuses the whole quantity when the garage holds less, or the unit has no garage or no such row', async () => {
    const s = await stockTenant(t, 'short@example.com');
    await setGarage(s, { 'Bath Towel': 3 });
    const towel = s.itemIds['Bath Towel']!;
    const before = await quantities(s);
    const short = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 4 });
    expect(short.statusCode).toBe(409);
    expect(short.json().error.message).toBe('Not enough stock available in garage');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${unknown}/transfer`, { quantity: 1 })).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: null })).statusCode).toBe(200);
    const noGarage = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 });
    expect(noGarage.statusCode).toBe(409);
    expect(noGarage.json().error.message).toBe('No garage assigned to this unit');
    expect(await quantities(s)).toEqual(before);
    expect(await restockLedger(s)).toEqual([]);
  });

  it('adds an item the unit does not hold yet from the garage, opening its row, or refuses it whole', async () => {
    const s = await stockTenant(t, 'from-garage@example.com');
    await setGarage(s, { 'Coffee Pods': 5 });
    const pods = s.itemIds['Coffee Pods']!;
    const url = `/api/units/${s.unitId}/inventory/${pods}/transfer`;
    const before = await quantities(s);
    const short = await api(t, s.cookie, 'POST', url, { quantity: 6 });
    expect(short.statusCode).toBe(409);
    expect(short.json().error.message).toBe('Not enough stock available in garage');
    expect(await quantities(s)).toEqual(before);
    const towelsNone = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']!}/transfer`, { quantity: 1 });
    expect(towelsNone.json().error.message).toBe('Not enough stock available in garage');
    expect(await quantities(s)).toEqual(before);

    const added = await api(t, s.cookie, 'POST', url, { quantity: 5 });
    expect(added.json()).toEqual({ unit_quantity: 5, garage_quantity: 0, status: 'low', movement_ids: [expect.any(String)] });
    expect(await quantities(s)).toEqual({ ...before, 'unit Coffee Pods': 5, 'garage Coffee Pods': 0 });
    expect((await restockLedger(s)).map((r) => r.quantity_change)).toEqual([-5, 5]);

    expect((await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: null })).statusCode).toBe(200);
    const noGarage = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']!}/transfer`, { quantity: 1 });
    expect(noGarage.json().error.message).toBe('No garage assigned to this unit');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('uses up n at once with minus, or what is left, never below 0', async () => {
    const s = await stockTenant(t, 'minus-n@example.com');
    await addToUnit(s, 'Bath Towel', 5);
    const url = `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']!}/consume`;
    expect((await api(t, s.cookie, 'POST', url, { quantity: 3 })).json()).toEqual({
      unit_quantity: 2,
      garage_quantity: null,
      status: 'low',
      movement_ids: [expect.any(String)],
    });
    expect((await api(t, s.cookie, 'POST', url)).json()).toMatchObject({ unit_quantity: 1 });
    expect((await api(t, s.cookie, 'POST', url, { quantity: 4 })).json()).toMatchObject({ unit_quantity: 0, status: 'critical' });
    expect((await api(t, s.cookie, 'POST', url, { quantity: 4 })).json()).toMatchObject({ unit_quantity: 0, movement_ids: [] });
    for (const [quantity, message] of [
      [0, 'Quantity must be at least 1'],
      [1.5, 'Quantity must be a whole number'],
      [MAX_QUANTITY + 1, 'Quantity must be at most 1,000,000'],
    ] as const) {
      const res = await api(t, s.cookie, 'POST', url, { quantity });
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const used = await queryRows<{ quantity_change: number }>(
      t.database.db,
      sql`select quantity_change from inventory_logs where tenant_id = ${s.tenantId} and type = 'consumption' order by created_at`,
    );
    expect(used.map((r) => r.quantity_change)).toEqual([-3, -1, -1]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('fills each row below its minimum from the garage, as far as it holds, and lists the shortfall', async () => {
    const s = await stockTenant(t, 'minimum@example.com', [
      { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3 },
      { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10 },
      { name: 'Hand Soap', category: 'Bath', minimum_threshold: 2 },
      { name: 'Sponge', category: 'Kitchen', minimum_threshold: 4 },
    ]);
    await setGarage(s, { 'Bath Towel': 10, 'Coffee Pods': 4, 'Hand Soap': 10 });
    await addToUnit(s, 'Bath Towel', 1);
    await addToUnit(s, 'Hand Soap', 5);
    const url = `/api/units/${s.unitId}/restock-to-minimum`;
    const id = (name: string) => s.itemIds[name]!;

    const first = await api(t, s.cookie, 'POST', url);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      moved: [
        { item_id: id('Bath Towel'), item_name: 'Bath Towel', quantity: 2 },
        { item_id: id('Coffee Pods'), item_name: 'Coffee Pods', quantity: 4 },
      ],
      short: [
        { item_id: id('Coffee Pods'), item_name: 'Coffee Pods', missing: 6 },
        { item_id: id('Sponge'), item_name: 'Sponge', missing: 4 },
      ],
      movement_ids: [expect.any(String), expect.any(String)],
    });
    const unitSides = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from inventory_logs where tenant_id = ${s.tenantId} and type = 'restock' and unit_id is not null`,
    );
    expect([...first.json().movement_ids].sort()).toEqual(unitSides.map((r) => r.id).sort());
    expect(await quantities(s)).toMatchObject({
      'unit Bath Towel': 3,
      'unit Coffee Pods': 4,
      'unit Hand Soap': 5,
      'unit Sponge': 0,
      'garage Bath Towel': 8,
      'garage Coffee Pods': 0,
      'garage Hand Soap': 10,
    });
    const ledger = await restockLedger(s);
    expect(ledger).toHaveLength(4);
    expect(new Set(ledger.map((r) => r.transfer_id)).size).toBe(2);

    expect((await api(t, s.cookie, 'POST', url, {})).json()).toEqual({
      moved: [],
      short: [
        { item_id: id('Coffee Pods'), item_name: 'Coffee Pods', missing: 6 },
        { item_id: id('Sponge'), item_name: 'Sponge', missing: 4 },
      ],
      movement_ids: [],
    });

    await setGarage(s, { 'Bath Towel': 8, 'Coffee Pods': 20, 'Hand Soap': 10 });
    const one = await api(t, s.cookie, 'POST', url, { item_id: id('Coffee Pods') });
    expect(one.json()).toEqual({ moved: [{ item_id: id('Coffee Pods'), item_name: 'Coffee Pods', quantity: 6 }], short: [], movement_ids: [expect.any(String)] });
    expect((await api(t, s.cookie, 'POST', url, { item_id: id('Bath Towel') })).json()).toEqual({ moved: [], short: [], movement_ids: [] });
    expect(await quantities(s)).toMatchObject({ 'unit Coffee Pods': 10, 'garage Coffee Pods': 14, 'unit Sponge': 0 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('answers 404 for an unknown unit or row, 409 without a garage, 400 for a malformed item id', async () => {
    const s = await stockTenant(t, 'minimum-refused@example.com');
    await setGarage(s, { 'Bath Towel': 10 });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(t, s.cookie, 'POST', `/api/units/${unknown}/restock-to-minimum`)).statusCode).toBe(404);
    const url = `/api/units/${s.unitId}/restock-to-minimum`;
    expect((await api(t, s.cookie, 'POST', url, { item_id: unknown })).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'POST', url, { item_id: 'towel' })).statusCode).toBe(400);
    expect((await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: null })).statusCode).toBe(200);
    const noGarage = await api(t, s.cookie, 'POST', url);
    expect(noGarage.statusCode).toBe(409);
    expect(noGarage.json().error.message).toBe('No garage assigned to this unit');
    expect(await restockLedger(s)).toEqual([]);
  });

  it('never fills past the minimum when two fills and plus presses run at once', async () => {
    const s = await stockTenant(t, 'minimum-race@example.com');
    await setGarage(s, { 'Bath Towel': 100, 'Coffee Pods': 100 });
    const url = `/api/units/${s.unitId}/restock-to-minimum`;
    const plus = `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']!}/transfer`;
    const answers = await Promise.all([api(t, s.cookie, 'POST', url), api(t, s.cookie, 'POST', plus, { quantity: 1 }), api(t, s.cookie, 'POST', url)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const movedByFills = answers
      .filter((_, k) => k !== 1)
      .flatMap((a) => (a.json() as { moved: { item_name: string; quantity: number }[] }).moved)
      .filter((m) => m.item_name === 'Bath Towel')
      .reduce((sum, m) => sum + m.quantity, 0);
    const after = await quantities(s);
    expect(after['unit Coffee Pods']).toBe(10);
    // The towel's minimum is 3: the fills moved what was missing when each ran, the press 1 more.
    expect(after['unit Bath Towel']).toBe(movedByFills + 1);
    expect([3, 4]).toContain(after['unit Bath Towel']);
    expect(after['garage Bath Towel']).toBe(100 - after['unit Bath Towel']!);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});
