/**
 * The lock helper refuses a step taken out of decision 009's order before it runs any statement
 * (docs/decisions/009-ledger-lock-order.md), and reads what it locks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant-tx';
import { backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { LockOrderError, stockLocks } from './locks';

describe.each(backends)('stock locks on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'locks@example.com');
  });
  afterAll(() => t.close());

  it('takes the steps in order and answers what it locked', async () => {
    const towel = s.itemIds['Bath Towel']!;
    await withTenant(t.database.db, s.tenantId, async (tx) => {
      const locks = stockLocks(tx, s.tenantId);
      expect((await locks.garages([s.garageId], 'key share')).get(s.garageId)).toEqual({ name: expect.any(String) });
      expect((await locks.units([s.unitId], 'share')).get(s.unitId)).toEqual({ garageId: s.garageId });
      const rows = await locks.unitRows(s.unitId, { items: [towel] });
      expect(rows.get(towel)).toEqual({ quantity: expect.any(Number), minimum: expect.any(Number) });
      expect((await locks.garageRows(s.garageId, 'all')).size).toBeGreaterThanOrEqual(0);
      expect(await locks.items([towel], 'update')).toEqual(new Set([towel]));
    });
  });

  it('refuses a step after a later one, and a lower key after a higher one', async () => {
    await withTenant(t.database.db, s.tenantId, async (tx) => {
      const locks = stockLocks(tx, s.tenantId);
      await locks.units([s.unitId], 'share');
      await expect(locks.garages([s.garageId], 'key share')).rejects.toThrow(LockOrderError);
    });
    await withTenant(t.database.db, s.tenantId, async (tx) => {
      const locks = stockLocks(tx, s.tenantId);
      await locks.unitRows('ffffffff-ffff-4fff-bfff-ffffffffffff', 'all');
      await expect(locks.unitRows('00000000-0000-4000-8000-000000000000', 'all')).rejects.toThrow(/lock order: unitRows 0{8}/);
    });
  });
});
