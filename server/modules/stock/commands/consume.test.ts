/**
 * Consumptions sent together (consume.ts, SQL `consume_at_units`, migration 0027): the lines of one
 * call move by rounds, a line's round being its rank among the call's lines of the same unit and
 * item. Each line still gets what it would have had alone, after the lines before it, and the
 * movements written add up to the change of the stock rows.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { pgArray, queryRows } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { backends, createTestApp, type TestApp } from '../../../test/harness';
import { ledgerMismatches, stockTenant } from '../../../test/stock-fixtures';
import { createUnit } from '../../units/service';

describe.each(backends)('consumptions sent together on %s', (backend) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('give several lines of one stock row, in rounds, what each would have had alone in order', async () => {
    t = await createTestApp(backend);
    const s = await stockTenant(t, 'use-rounds@example.com');
    const who = s.owner;
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const loft = (
      await createUnit(
        t.database.db,
        who,
        { name: 'Loft', address: '9 Main', garage_id: s.garageId, inventory: [{ item_id: towel, quantity: 5 }, { item_id: pods, quantity: 4 }] },
        new Date(),
      )
    ).id;
    // Towel: rounds 1, 2 and 3 of one row holding 5; pods: a second row in round 1; then a unit
    // without a stock row.
    const lines = [
      { unitId: loft, itemId: towel, quantity: 3 },
      { unitId: loft, itemId: pods, quantity: 2 },
      { unitId: loft, itemId: towel, quantity: 3 },
      { unitId: loft, itemId: towel, quantity: 1 },
      { unitId: '00000000-0000-4000-8000-000000000000', itemId: towel, quantity: 1 },
    ];
    const outcomes = await withTenant(t.database.db, s.tenantId, (tx) =>
      queryRows<{ line: number; outcome: string; unit_quantity: number | null; threshold: number | null; movement_id: string | null }>(
        tx,
        sql`select line, outcome, unit_quantity, threshold, movement_id
            from consume_at_units(${s.tenantId}::uuid, ${pgArray(lines.map((l) => l.unitId))}::uuid[],
              ${pgArray(lines.map((l) => l.itemId))}::uuid[], ${pgArray(lines.map((l) => l.quantity))}::int[],
              ${pgArray(lines.map(() => who.userId))}::uuid[])
            order by line`,
      ),
    );
    expect(outcomes).toEqual([
      { line: 1, outcome: 'used', unit_quantity: 2, threshold: 3, movement_id: expect.any(String) },
      { line: 2, outcome: 'used', unit_quantity: 2, threshold: 10, movement_id: expect.any(String) },
      { line: 3, outcome: 'used', unit_quantity: 0, threshold: 3, movement_id: expect.any(String) },
      { line: 4, outcome: 'used', unit_quantity: 0, threshold: 3, movement_id: null },
      { line: 5, outcome: 'no_stock_row', unit_quantity: null, threshold: null, movement_id: null },
    ]);

    // One consumption movement per line that used something, with the line's movement id: 3 and
    // then 2 towels, 2 pods; the rows hold what they held less that.
    const used = await queryRows<{ id: string; item_id: string; quantity_change: number; user_id: string }>(
      t.database.db,
      sql`select id, item_id, quantity_change, user_id from inventory_logs
          where tenant_id = ${s.tenantId} and unit_id = ${loft} and type = 'consumption'`,
    );
    const byId = new Map(used.map((r) => [r.id, r]));
    expect(used).toHaveLength(3);
    expect(byId.get(outcomes[0]!.movement_id!)).toMatchObject({ item_id: towel, quantity_change: -3, user_id: who.userId });
    expect(byId.get(outcomes[1]!.movement_id!)).toMatchObject({ item_id: pods, quantity_change: -2, user_id: who.userId });
    expect(byId.get(outcomes[2]!.movement_id!)).toMatchObject({ item_id: towel, quantity_change: -2, user_id: who.userId });
    const rows = await queryRows<{ item_id: string; quantity: number }>(
      t.database.db,
      sql`select item_id, quantity from unit_inventory where tenant_id = ${s.tenantId} and unit_id = ${loft}`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.item_id, Number(r.quantity)]))).toEqual({ [towel]: 0, [pods]: 2 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});
