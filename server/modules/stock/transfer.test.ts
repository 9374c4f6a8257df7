/**
 * The transfer primitive (transfer.ts, migration 0013): lines in order, each with the outcome it
 * would have had alone after the lines before it, two ledger rows per moved line, and nothing
 * written for a line that does not move.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { sqlStateOf } from '../../db/sql-state';
import { withTenant } from '../../db/tenant-tx';
import { backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant } from '../../test/stock-fixtures';
import { replaceGarageInventory } from '../garages/service';
import { createUnit, updateUnit } from '../units/service';
import { transferToUnits } from './transfer';

describe.each(backends)('transfers to units on %s', (backend) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('give each line the outcome and quantities it would have had alone, in order', async () => {
    t = await createTestApp(backend);
    const s = await stockTenant(t, 'batch@example.com');
    const who = s.owner;
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    await replaceGarageInventory(t.database.db, who, s.garageId, { inventory: [{ item_id: towel, quantity: 3 }, { item_id: pods, quantity: 1 }] });
    const loft = (await createUnit(t.database.db, who, { name: 'Loft', address: '9 Main', garage_id: s.garageId, inventory: [{ item_id: towel, quantity: 2 }] }, new Date())).id;
    const attic = (await createUnit(t.database.db, who, { name: 'Attic', address: '1 Top', garage_id: s.garageId, inventory: [{ item_id: towel, quantity: 1 }] }, new Date())).id;
    await updateUnit(t.database.db, who, attic, { name: 'Attic', address: '1 Top', garage_id: null });
    const one = (unitId: string, itemId: string) => ({ unitId, itemId, quantity: 1, userId: who.userId });
    const outcomes = await withTenant(t.database.db, s.tenantId, (tx) =>
      transferToUnits(
        tx,
        s.tenantId,
        [
          one(s.unitId, towel),
          one(loft, pods),
          one(attic, towel),
          one(loft, towel),
          one(s.unitId, towel),
          one(s.unitId, towel),
          one(s.unitId, pods),
          one('00000000-0000-4000-8000-000000000000', towel),
        ],
        { type: 'restock' },
      ),
    );
    expect(outcomes).toEqual([
      { kind: 'moved', unitQuantity: 1, garageQuantity: 2, threshold: 3, movementId: expect.any(String) },
      { kind: 'no_stock_row' },
      { kind: 'no_garage' },
      { kind: 'moved', unitQuantity: 3, garageQuantity: 1, threshold: 3, movementId: expect.any(String) },
      { kind: 'moved', unitQuantity: 2, garageQuantity: 0, threshold: 3, movementId: expect.any(String) },
      { kind: 'garage_short' },
      { kind: 'moved', unitQuantity: 1, garageQuantity: 0, threshold: 10, movementId: expect.any(String) },
      { kind: 'no_stock_row' },
    ]);
    expect(await ledgerMismatches(t)).toEqual([]);
    const transfers = await queryRows<{ unit_id: string | null; garage_id: string | null; quantity_change: number }>(
      t.database.db,
      sql`select unit_id, garage_id, quantity_change from inventory_logs
          where tenant_id = ${s.tenantId} and type = 'restock' order by transfer_id, quantity_change`,
    );
    expect(transfers).toHaveLength(8);
    expect(transfers.filter((r) => r.quantity_change === -1).every((r) => r.garage_id === s.garageId && r.unit_id === null)).toBe(true);
  });

  it('moves a line only when the garage holds all of it, and a smaller later line still moves', async () => {
    const s = await stockTenant(t, 'lines@example.com');
    const who = s.owner;
    const towel = s.itemIds['Bath Towel']!;
    await replaceGarageInventory(t.database.db, who, s.garageId, { inventory: [{ item_id: towel, quantity: 10 }] });
    const before = await queryRows<{ quantity: number }>(
      t.database.db,
      sql`select quantity from unit_inventory where tenant_id = ${s.tenantId} and unit_id = ${s.unitId} and item_id = ${towel}`,
    );
    const start = Number(before[0]!.quantity);
    const line = (quantity: number) => ({ unitId: s.unitId, itemId: towel, quantity, userId: who.userId });
    const outcomes = await withTenant(t.database.db, s.tenantId, (tx) =>
      transferToUnits(tx, s.tenantId, [line(6), line(5), line(4)], { type: 'scan', note: 'Scanned in the storage room' }),
    );
    expect(outcomes).toEqual([
      { kind: 'moved', unitQuantity: start + 6, garageQuantity: 4, threshold: 3, movementId: expect.any(String) },
      { kind: 'garage_short' },
      { kind: 'moved', unitQuantity: start + 10, garageQuantity: 0, threshold: 3, movementId: expect.any(String) },
    ]);
    const rows = await queryRows<{ type: string; note: string; quantity_change: number; transfer_id: string }>(
      t.database.db,
      sql`select type, note, quantity_change, transfer_id from inventory_logs
          where tenant_id = ${s.tenantId} and type = 'scan' order by created_at, quantity_change`,
    );
    expect(rows.map((r) => r.quantity_change).sort((a, b) => a - b)).toEqual([-6, -4, 4, 6]);
    expect(new Set(rows.map((r) => r.note))).toEqual(new Set(['Scanned in the storage room']));
    expect(new Set(rows.map((r) => r.transfer_id)).size).toBe(2);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses a quantity that is not positive and writes nothing', async () => {
    const s = await stockTenant(t, 'zero@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const failure = await withTenant(t.database.db, s.tenantId, (tx) =>
      transferToUnits(
        tx,
        s.tenantId,
        [
          { unitId: s.unitId, itemId: towel, quantity: 1, userId: s.owner.userId },
          { unitId: s.unitId, itemId: towel, quantity: 0, userId: s.owner.userId },
        ],
        { type: 'restock' },
      ),
    ).catch((err: unknown) => err);
    expect(sqlStateOf(failure)).toBe('22023');
    const [logged] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from inventory_logs where tenant_id = ${s.tenantId} and type = 'restock'`,
    );
    expect(logged!.n).toBe(0);
  });
});
