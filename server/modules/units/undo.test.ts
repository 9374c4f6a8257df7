/**
 * Undo (docs/product.md "Stock movements and statuses", docs/decisions/024-undo-by-reverse-movements.md):
 * every stock change of Unit detail answers the ledger rows it wrote, and
 * POST /api/units/:id/movements/reverse writes their reverse — never deleting history — all or
 * none, once. The ledger invariant holds after each.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REVERSED_MOVEMENTS } from '../../../common/contracts/stock';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

describe.each(backends)('undo by reverse movements on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** A tenant whose garage holds 10 towels and 20 pods and whose unit holds 2 towels. */
  const stocked = async (email: string): Promise<StockTenant> => {
    const s = await stockTenant(t, email);
    const inventory = [
      { item_id: s.itemIds['Bath Towel']!, quantity: 10 },
      { item_id: s.itemIds['Coffee Pods']!, quantity: 20 },
    ];
    expect((await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory })).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: s.itemIds['Bath Towel']!, quantity: 2 })).statusCode).toBe(200);
    return s;
  };
  const quantities = async (s: StockTenant) => {
    const rows = await queryRows<{ kind: string; name: string; quantity: number }>(
      t.database.db,
      sql`select 'unit' as kind, i.name, s.quantity from unit_inventory s join items i on i.id = s.item_id where s.tenant_id = ${s.tenantId}
          union all
          select 'garage', i.name, g.quantity from garage_inventory g join items i on i.id = g.item_id where g.tenant_id = ${s.tenantId}`,
    );
    return Object.fromEntries(rows.map((r) => [`${r.kind} ${r.name}`, Number(r.quantity)]));
  };
  const ledgerSize = async (s: StockTenant) =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from inventory_logs where tenant_id = ${s.tenantId}`))[0]!.n;
  const undo = (s: StockTenant, movementIds: unknown, unitId = s.unitId) =>
    api(t, s.cookie, 'POST', `/api/units/${unitId}/movements/reverse`, { movement_ids: movementIds });

  it('sends a restock by quantity back to the garage by a reverse transfer, keeping both in the ledger, once', async () => {
    const s = await stocked('undo-transfer@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const before = await quantities(s);
    const moved = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 3 });
    expect(moved.json()).toMatchObject({ unit_quantity: 5, garage_quantity: 7 });
    const ids = moved.json().movement_ids as string[];

    const res = await undo(s, ids);
    expect(res.statusCode).toBe(200);
    expect(res.json().inventory).toContainEqual(expect.objectContaining({ item_name: 'Bath Towel', quantity: 2 }));
    expect(await quantities(s)).toEqual(before);
    const rows = await queryRows<{ unit_id: string | null; garage_id: string | null; quantity_change: number; type: string; note: string | null; transfer_id: string }>(
      t.database.db,
      sql`select unit_id, garage_id, quantity_change, type, note, transfer_id from inventory_logs
          where tenant_id = ${s.tenantId} and type = 'restock' order by note nulls first, quantity_change`,
    );
    expect(rows.map((r) => [r.garage_id ? 'garage' : 'unit', r.quantity_change, r.note])).toEqual([
      ['garage', -3, null],
      ['unit', 3, null],
      ['unit', -3, `Undo of ${ids[0]}`],
      ['garage', 3, `Undo of ${ids[0]}`],
    ]);
    expect(rows[2]!.transfer_id).toBe(rows[3]!.transfer_id);
    expect(rows[2]!.transfer_id).not.toBe(rows[0]!.transfer_id);

    const again = await undo(s, ids);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This change was already undone');
    expect(await quantities(s)).toEqual(before);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('gives back what quick minus taps used, takes out what came from outside, and opens a removed row again', async () => {
    const s = await stocked('undo-kinds@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const before = await quantities(s);

    const used = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`, { quantity: 2 });
    expect(used.json()).toMatchObject({ unit_quantity: 0, status: 'critical' });
    expect((await undo(s, used.json().movement_ids)).json().inventory).toContainEqual(expect.objectContaining({ item_name: 'Bath Towel', quantity: 2 }));

    const bought = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: pods, quantity: 6 });
    expect(bought.json()).toMatchObject({ unit_quantity: 6 });
    expect((await undo(s, bought.json().movement_ids)).json().inventory).toEqual([
      expect.objectContaining({ item_name: 'Bath Towel', quantity: 2 }),
      expect.objectContaining({ item_name: 'Coffee Pods', quantity: 0 }),
    ]);

    const removed = await api(t, s.cookie, 'DELETE', `/api/units/${s.unitId}/inventory/${towel}`);
    expect(removed.statusCode).toBe(200);
    expect((await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json().inventory.map((r: { item_name: string }) => r.item_name)).toEqual(['Coffee Pods']);
    const reopened = await undo(s, removed.json().movement_ids);
    expect(reopened.json().inventory).toEqual([
      expect.objectContaining({ item_name: 'Bath Towel', quantity: 2, status: 'low' }),
      expect.objectContaining({ item_name: 'Coffee Pods', quantity: 0 }),
    ]);
    expect(await quantities(s)).toEqual(before);
    const types = await queryRows<{ type: string; quantity_change: number }>(
      t.database.db,
      sql`select type, quantity_change from inventory_logs where tenant_id = ${s.tenantId} and note like 'Undo of %' order by created_at, type`,
    );
    expect(types).toEqual([
      { type: 'consumption', quantity_change: 2 },
      { type: 'external_addition', quantity_change: -6 },
      { type: 'count', quantity_change: 2 },
    ]);
    // The use and the removal were undone: neither is usage any more, in the ledger or the daily totals.
    const [usage] = await queryRows<{ rows: number; used: number }>(
      t.database.db,
      sql`select (select count(*)::int from inventory_logs l where l.tenant_id = ${s.tenantId} and ledger_is_usage(l.source_type, l.quantity_change, l.type, l.reversed_at)) as rows,
                 (select coalesce(sum(used), 0)::int from unit_usage_daily where tenant_id = ${s.tenantId}) as used`,
    );
    expect(usage).toEqual({ rows: 0, used: 0 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('undoes a restock to minimum as a whole, or nothing of it when part of it was used since', async () => {
    const s = await stocked('undo-minimum@example.com');
    const towel = s.itemIds['Bath Towel']!;
    await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: s.itemIds['Coffee Pods']!, quantity: 1 });
    const before = await quantities(s);
    const filled = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/restock-to-minimum`);
    expect(filled.json().moved).toEqual([
      expect.objectContaining({ item_name: 'Bath Towel', quantity: 1 }),
      expect.objectContaining({ item_name: 'Coffee Pods', quantity: 9 }),
    ]);
    const ids = filled.json().movement_ids as string[];
    expect(ids).toHaveLength(2);

    // Both towels of the unit used: the towel's restock cannot go back, so neither goes back.
    await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`, { quantity: 3 });
    const size = await ledgerSize(s);
    const refused = await undo(s, ids);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This change can no longer be undone: Bath Towel has been used or moved since. Nothing was changed.');
    expect(await ledgerSize(s)).toBe(size);

    await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 3 });
    expect((await undo(s, ids)).statusCode).toBe(200);
    expect(await quantities(s)).toMatchObject({ 'unit Coffee Pods': before['unit Coffee Pods'], 'garage Coffee Pods': before['garage Coffee Pods'] });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses what is not a stock change of this unit, what cannot be undone, and malformed lists, changing nothing', async () => {
    const s = await stocked('undo-refused@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const moved = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 });
    const ids = moved.json().movement_ids as string[];
    const other = await api(t, s.cookie, 'POST', '/api/units', { name: 'Loft', address: '9 Main St', garage_id: s.garageId, inventory: [] });
    const [garageSide] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from inventory_logs where tenant_id = ${s.tenantId} and type = 'restock' and garage_id is not null`,
    );
    const [count] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from inventory_logs where tenant_id = ${s.tenantId} and type = 'count' and garage_id is not null limit 1`,
    );
    const size = await ledgerSize(s);
    const unknown = '00000000-0000-4000-8000-000000000000';

    expect((await undo(s, ids, other.json().id)).statusCode).toBe(404);
    expect((await undo(s, ids, unknown)).statusCode).toBe(404);
    expect((await undo(s, [unknown])).json().error).toEqual({ code: 'NOT_FOUND', message: 'Stock change not found' });
    expect((await undo(s, [...ids, garageSide!.id])).statusCode).toBe(404);
    expect((await undo(s, [count!.id])).statusCode).toBe(404);
    for (const [body, message] of [
      [[], 'Name at least one stock change to undo'],
      [['towel'], 'Each movement must be a stock change id'],
      [[ids[0], ids[0]], 'Each stock change can be undone only once'],
      [Array.from({ length: MAX_REVERSED_MOVEMENTS + 1 }, () => randomUUID()), 'At most 1,000 stock changes at once'],
    ] as const) {
      const res = await undo(s, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect(await ledgerSize(s)).toBe(size);

    // An undo cannot itself be undone (a change the other way is a new change).
    expect((await undo(s, ids)).statusCode).toBe(200);
    const [reverse] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from inventory_logs where tenant_id = ${s.tenantId} and unit_id = ${s.unitId} and note = ${`Undo of ${ids[0]}`}`,
    );
    const refused = await undo(s, [reverse!.id]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This change cannot be undone');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses to send stock back to a garage deleted since', async () => {
    const s = await stocked('undo-garage@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const annex = await api(t, s.cookie, 'POST', '/api/garages', { name: 'Annex', address: '5 Side St', inventory: [{ item_id: towel, quantity: 4 }] });
    const edit = (garageId: string) => api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: garageId });
    await edit(annex.json().id);
    const moved = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 4 });
    await edit(s.garageId);
    expect((await api(t, s.cookie, 'DELETE', `/api/garages/${annex.json().id}`)).statusCode).toBe(204);
    const res = await undo(s, moved.json().movement_ids);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('The garage this stock came from was deleted. Nothing was changed.');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it.runIf(backend === 'postgres')('undoes a change once when the same undo arrives several times at once', async () => {
    const s = await stocked('undo-race@example.com');
    const towel = s.itemIds['Bath Towel']!;
    for (let round = 0; round < 10; round++) {
      const moved = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 });
      const answers = await Promise.all(Array.from({ length: 4 }, () => undo(s, moved.json().movement_ids)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    }
    expect(await quantities(s)).toMatchObject({ 'unit Bath Towel': 2, 'garage Bath Towel': 10 });
    expect(await ledgerMismatches(t)).toEqual([]);
  }, 60_000);
});
