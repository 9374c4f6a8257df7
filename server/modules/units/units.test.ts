import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

describe.each(backends)('items, garages and units on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'stock@example.com');
  });
  afterAll(() => t.close());

  const garageStock = async (itemId: string) => {
    const garages = (await api(t, s.cookie, 'GET', '/api/garages')).json() as { id: string; inventory: { item_id: string; quantity: number }[] }[];
    return garages.find((g) => g.id === s.garageId)!.inventory.find((r) => r.item_id === itemId)?.quantity ?? 0;
  };

  it('creates, edits and lists items; refuses bad input with 400', async () => {
    const extra = await api(t, s.cookie, 'POST', '/api/items', { name: 'Sheet Set', category: 'Linen', minimum_threshold: 2, count_cost: 24.99, extra: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error.message).toBe('Unknown field: extra');
    const created = await api(t, s.cookie, 'POST', '/api/items', { name: 'Sheet Set', category: 'Linen', minimum_threshold: 2, count_cost: 24.99 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Sheet Set', count_cost: 24.99, minimum_threshold: 2 });
    expect(created.json()).not.toHaveProperty('extra');
    const edited = await api(t, s.cookie, 'PATCH', `/api/items/${created.json().id}`, { name: 'Sheet Set (Queen)', category: 'Linen', minimum_threshold: 3, count_cost: 25 });
    expect(edited.json()).toMatchObject({ name: 'Sheet Set (Queen)', count_cost: 25 });
    for (const bad of [
      { name: 'X', category: 'Y', minimum_threshold: -1 },
      { name: 'X', category: 'Y', minimum_threshold: 1.5 },
      { name: 'X', category: 'Y', count_cost: -2 },
      { name: 'X', category: 'Y', count_cost: 'abc' },
      { name: 'X', category: 'Y', count_cost: 1.234 },
      { name: '', category: 'Y' },
    ]) {
      const res = await api(t, s.cookie, 'POST', '/api/items', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await api(t, s.cookie, 'POST', '/api/items', { name: '', category: '' })).json().error.message).toBe('Please fill out all fields');
    const names = ((await api(t, s.cookie, 'GET', '/api/items')).json() as { name: string }[]).map((i) => i.name);
    expect(names).toEqual(['Bath Towel', 'Coffee Pods', 'Sheet Set (Queen)']);
    expect((await api(t, s.cookie, 'DELETE', `/api/items/${created.json().id}`)).statusCode).toBe(204);
  });

  it('refuses an item name already in use, whatever its case, on create and rename', async () => {
    const taken = await api(t, s.cookie, 'POST', '/api/items', { name: ' bath towel ', category: 'Linen' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toEqual({ code: 'CONFLICT', message: 'An item named Bath Towel already exists' });
    const pods = s.itemIds['Coffee Pods']!;
    const renamed = await api(t, s.cookie, 'PATCH', `/api/items/${pods}`, { name: 'BATH TOWEL', category: 'Kitchen', minimum_threshold: 10 });
    expect(renamed.json().error.message).toBe('An item named Bath Towel already exists');
    const ownName = await api(t, s.cookie, 'PATCH', `/api/items/${pods}`, { name: 'coffee pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 });
    expect(ownName.json()).toMatchObject({ name: 'coffee pods' });
    await api(t, s.cookie, 'PATCH', `/api/items/${pods}`, { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 });
    const names = ((await api(t, s.cookie, 'GET', '/api/items')).json() as { name: string }[]).map((i) => i.name);
    expect(names).toEqual(['Bath Towel', 'Coffee Pods']);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(t, s.cookie, 'GET', `/api/units/${unknown}`)).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'GET', '/api/units/not-a-uuid')).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${unknown}/transfer`, { quantity: 1 })).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'PATCH', `/api/items/${unknown}`, { name: 'a', category: 'b' })).statusCode).toBe(404);
  });

  it('Save Inventory counts the garage, recording each change as a count', async () => {
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const res = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 5 }, { item_id: pods, quantity: 40 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().inventory).toEqual([
      { item_id: towel, item_name: 'Bath Towel', quantity: 5 },
      { item_id: pods, item_name: 'Coffee Pods', quantity: 40 },
    ]);
    const dup = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 1 }, { item_id: towel, quantity: 2 }] });
    expect(dup.statusCode).toBe(400);
    expect(await garageStock(towel)).toBe(5);
  });

  it('plus moves one from the garage to the unit; minus consumes one, floored at 0', async () => {
    const towel = s.itemIds['Bath Towel']!;
    const plus = () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 });
    const minus = () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`);
    expect((await plus()).json()).toEqual({ unit_quantity: 1, garage_quantity: 4, status: 'low', movement_ids: [expect.any(String)] });
    for (let i = 0; i < 4; i++) await plus();
    expect(await garageStock(towel)).toBe(0);
    const refused = await plus();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Not enough stock available in garage');
    expect((await minus()).json()).toEqual({ unit_quantity: 4, garage_quantity: null, status: 'sufficient', movement_ids: [expect.any(String)] });
    for (let i = 0; i < 4; i++) await minus();
    expect((await minus()).json()).toEqual({ unit_quantity: 0, garage_quantity: null, status: 'critical', movement_ids: [] });

    const transfers = await queryRows<{ type: string; n: number; sum: number }>(
      t.database.db,
      sql`select type, count(*)::int as n, sum(quantity_change)::int as sum from inventory_logs where tenant_id = ${s.tenantId} and type in ('restock','consumption') group by type order by type`,
    );
    expect(transfers).toEqual([
      { type: 'consumption', n: 5, sum: -5 },
      { type: 'restock', n: 10, sum: 0 },
    ]);
    const [cost] = await queryRows<{ cost: string }>(
      t.database.db,
      sql`select unit_cost::text as cost from inventory_logs where tenant_id = ${s.tenantId} and type = 'consumption' limit 1`,
    );
    expect(cost!.cost).toBe('6.50');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses plus without a garage', async () => {
    const pods = s.itemIds['Coffee Pods']!;
    await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: null });
    const res = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${pods}/transfer`, { quantity: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('No garage assigned to this unit');
    const back = await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: s.garageId });
    expect(back.json().garage).toMatchObject({ id: s.garageId, name: 'Main Storage' });
  });

  it('Add Unit with stock rows; Add Manually; remove a row; the last unit, garage and item cannot be deleted', async () => {
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const created = await api(t, s.cookie, 'POST', '/api/units', {
      name: 'Loft 3B',
      address: '9 Main St',
      garage_id: s.garageId,
      inventory: [{ item_id: towel, quantity: 6 }, { item_id: pods, quantity: 0 }],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().inventory).toEqual([
      expect.objectContaining({ item_id: towel, quantity: 6, status: 'sufficient', minimum_threshold: 3 }),
    ]);
    const loft = created.json().id as string;
    const added = await api(t, s.cookie, 'POST', `/api/units/${loft}/inventory`, { item_id: pods, quantity: 12 });
    expect(added.json()).toEqual({ unit_quantity: 12, garage_quantity: null, status: 'sufficient', movement_ids: [expect.any(String)] });
    expect((await api(t, s.cookie, 'POST', `/api/units/${loft}/inventory`, { item_id: pods, quantity: 0 })).statusCode).toBe(400);
    const removed = await api(t, s.cookie, 'DELETE', `/api/units/${loft}/inventory/${pods}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ movement_ids: [expect.any(String)] });
    expect((await api(t, s.cookie, 'GET', `/api/units/${loft}`)).json().inventory).toHaveLength(1);

    const noGarage = await api(t, s.cookie, 'POST', '/api/units', { name: 'X', address: 'Y', garage_id: 'nope' });
    expect(noGarage.json().error.message).toBe('Please select a garage');

    expect((await api(t, s.cookie, 'DELETE', `/api/units/${loft}`)).statusCode).toBe(204);
    const last = await api(t, s.cookie, 'DELETE', `/api/units/${s.unitId}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().error.message).toBe('You must maintain at least one property in your account');
    const lastGarage = await api(t, s.cookie, 'DELETE', `/api/garages/${s.garageId}`);
    expect(lastGarage.json().error.message).toBe('You must maintain at least one storage location in your account');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('deleting an item with stock is refused; a garage with stock or properties is refused with the counts', async () => {
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const g2 = await api(t, s.cookie, 'POST', '/api/garages', { name: 'Annex', address: '5 Side St', inventory: [{ item_id: towel, quantity: 7 }] });
    expect(g2.statusCode).toBe(201);
    expect(g2.json().inventory).toEqual([{ item_id: towel, item_name: 'Bath Towel', quantity: 7 }]);
    const annex = g2.json().id as string;
    const refused = await api(t, s.cookie, 'DELETE', `/api/items/${towel}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/still has \d+ in stock in \d+ locations?/);
    const ledgerRows = async () => (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from inventory_logs where tenant_id = ${s.tenantId}`))[0]!.n;
    const before = await ledgerRows();

    const holds = async (message: string) => {
      const res = await api(t, s.cookie, 'DELETE', `/api/garages/${annex}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message });
    };
    await holds('Annex still holds 1 stock row: move or remove them first');
    await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: annex });
    await api(t, s.cookie, 'PUT', `/api/garages/${annex}/inventory`, { inventory: [{ item_id: towel, quantity: 7 }, { item_id: pods, quantity: 2 }] });
    await holds('Annex still holds 2 stock rows and 1 property: move or remove them first');
    // Rows at 0 hold nothing: only the property is left.
    await api(t, s.cookie, 'PUT', `/api/garages/${annex}/inventory`, { inventory: [] });
    await holds('Annex still holds 1 property: move or remove them first');
    expect((await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json().garage).toMatchObject({ id: annex });
    expect(await ledgerRows()).toBe(before + 3); // the count of the pods in, both rows counted out; nothing from the refusals

    await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: s.garageId });
    expect((await api(t, s.cookie, 'DELETE', `/api/garages/${annex}`)).statusCode).toBe(204);
    expect(await ledgerRows()).toBe(before + 3);
    expect((await api(t, s.cookie, 'GET', '/api/garages')).json().map((g: { id: string }) => g.id)).toEqual([s.garageId]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('the dashboard shows the alerts and activity these actions caused', async () => {
    const d = (await api(t, s.cookie, 'GET', '/api/dashboard')).json();
    expect(d.stats.total_units).toBe(1);
    expect(d.recent_activity.length).toBeGreaterThan(0);
    expect(d.recent_activity[0]).toHaveProperty('source_name');
    expect(d.unit_alerts.every((a: { location_type: string }) => a.location_type === 'unit')).toBe(true);
  });
});
