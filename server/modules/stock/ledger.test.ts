/**
 * Ledger correctness (docs/product.md "Stock movements and statuses"): after thousands of random operations every quantity equals
 * the sum of its ledger rows, none is negative, and transfers conserve stock; 200 concurrent
 * plus-presses against a garage of 50 accept exactly 50.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';
import type { TenantIdentity } from '../auth/identity';
import { replaceGarageInventory } from '../garages/service';
import { createUnit } from '../units/service';
import { consume } from './commands/consume';
import { receiveAtUnit } from './commands/receive';
import { removeUnitStock } from './commands/remove-stock-row';
import { transferToUnit } from './commands/transfer-to-unit';

describe.each(backends)('ledger invariant on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let who: TenantIdentity;
  const unitIds: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'ledger@example.com', [
      { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 6.5 },
      { name: 'Soap', category: 'Bath', minimum_threshold: 1, count_cost: 1.25 },
      { name: 'Pods', category: 'Kitchen', minimum_threshold: 5, count_cost: 0.45 },
    ]);
    who = s.owner;
    unitIds.push(s.unitId);
    unitIds.push((await createUnit(t.database.db, who, { name: 'Loft', address: '9 Main', garage_id: s.garageId, inventory: [] }, new Date())).id);
  });
  afterAll(() => t.close());

  it('holds after thousands of random operations', async () => {
    const items = Object.values(s.itemIds);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('count' as const), item: fc.nat(items.length - 1), qty: fc.nat(30) }),
      fc.record({ kind: fc.constant('restock' as const), unit: fc.nat(1), item: fc.nat(items.length - 1) }),
      fc.record({ kind: fc.constant('consume' as const), unit: fc.nat(1), item: fc.nat(items.length - 1) }),
      fc.record({ kind: fc.constant('add' as const), unit: fc.nat(1), item: fc.nat(items.length - 1), qty: fc.integer({ min: 1, max: 5 }) }),
      fc.record({ kind: fc.constant('remove' as const), unit: fc.nat(1), item: fc.nat(items.length - 1) }),
    );
    const totals = () =>
      queryRows<{ outside: number }>(
        t.database.db,
        sql`select coalesce(sum(quantity_change) filter (where type in ('external_addition','consumption','count','initial')), 0)::int as outside from inventory_logs where tenant_id = ${s.tenantId}`,
      );
    const onHand = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select ((select coalesce(sum(quantity),0) from garage_inventory where tenant_id = ${s.tenantId}) + (select coalesce(sum(quantity),0) from unit_inventory where tenant_id = ${s.tenantId}))::int as n`,
        )
      )[0]!.n;
    const start = await onHand();
    const outsideStart = (await totals())[0]!.outside;
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 50, maxLength: 50 }), async (ops) => {
        for (const o of ops) {
          const item = items[o.item]!;
          try {
            if (o.kind === 'count') {
              const garage = await api(t, s.cookie, 'GET', '/api/garages');
              const lines = (garage.json()[0].inventory as { item_id: string; quantity: number }[]).filter((l) => l.item_id !== item);
              await replaceGarageInventory(t.database.db, who, s.garageId, { inventory: [...lines, { item_id: item, quantity: o.qty }] });
            } else if (o.kind === 'restock') await transferToUnit(t.database.db, who, unitIds[o.unit]!, item, 1);
            else if (o.kind === 'consume') await consume(t.database.db, who, unitIds[o.unit]!, item);
            else if (o.kind === 'add') await receiveAtUnit(t.database.db, who, unitIds[o.unit]!, { item_id: item, quantity: o.qty });
            else await removeUnitStock(t.database.db, who, unitIds[o.unit]!, item);
            applied++;
          } catch (err) {
            // Refusals (no stock row, not enough stock) are expected outcomes; anything else is a bug.
            const code = (err as { code?: string }).code;
            if (code !== 'NOT_FOUND' && code !== 'CONFLICT') throw err;
          }
        }
        expect(await ledgerMismatches(t)).toEqual([]);
        const [neg] = await queryRows<{ n: number }>(
          t.database.db,
          sql`select ((select count(*) from garage_inventory where quantity < 0) + (select count(*) from unit_inventory where quantity < 0))::int as n`,
        );
        expect(neg!.n).toBe(0);
        // Transfers conserve stock: the garage and its units change only by outside movements.
        expect((await onHand()) - start).toBe((await totals())[0]!.outside - outsideStart);
      }),
      { numRuns: 60, seed: 20261121 },
    );
    expect(applied).toBeGreaterThan(1000);
  }, 300_000);
});

describe.runIf(backends.includes('postgres'))('concurrency on postgres', () => {
  let t: TestApp;
  let s: StockTenant;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    s = await stockTenant(t, 'rush@example.com');
  });
  afterAll(() => t.close());

  it('200 simultaneous plus-presses against a garage of 50 accept exactly 50', async () => {
    const towel = s.itemIds['Bath Towel']!;
    await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 50 }] });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(50);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(150);
    expect(new Set(refused.map((r) => r.json().error.message))).toEqual(new Set(['Not enough stock available in garage']));
    const unit = (await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json();
    expect(unit.inventory.find((r: { item_id: string }) => r.item_id === towel).quantity).toBe(50);
    const garage = (await api(t, s.cookie, 'GET', '/api/garages')).json()[0];
    expect(garage.inventory.find((r: { item_id: string }) => r.item_id === towel)?.quantity ?? 0).toBe(0);
    const [restocks] = await queryRows<{ n: number; garage: number; unit: number }>(
      t.database.db,
      sql`select count(distinct transfer_id)::int as n,
                 sum(quantity_change) filter (where source_type = 'garage')::int as garage,
                 sum(quantity_change) filter (where source_type = 'unit')::int as unit
          from inventory_logs where tenant_id = ${s.tenantId} and type = 'restock'`,
    );
    expect(restocks).toEqual({ n: 50, garage: -50, unit: 50 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});
