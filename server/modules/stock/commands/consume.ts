/**
 * Consumption (docs/product.md "Stock movements and statuses"): the minus button uses `quantity`
 * pieces at a unit (1 unless quick taps were sent together), or what is left when it holds less;
 * at 0 nothing changes. A `consumption` movement is usage (docs/product.md "Reports").
 */
import type { StockMoveResult } from '../../../../common/contracts/stock';
import { stockStatus } from '../../../../common/contracts/stock';
import type { Db } from '../../../db/client';
import { ConcurrentChange, withTenant } from '../../../db/tenant-tx';
import { notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/session';
import { changeStock, movementsWrittenAt } from '../ledger';
import { stockLocks } from '../locks';

/**
 * Uses `quantity` (pieces, >= 1) of `itemId` at the unit, floored at what it holds.
 * Locks the unit FOR SHARE before its row: the usage this writes makes the ledger's trigger lock
 * the unit too, after the stock row, which would invert the lock order were the unit not held.
 * @returns the quantity after, the row's status, and the ledger row to undo it (none when nothing was used).
 * @throws 404 for an unknown unit or a unit without a stock row of the item
 */
export async function consume(db: Db, who: TenantIdentity, unitId: string, itemId: string, quantity = 1): Promise<StockMoveResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    const locks = stockLocks(tx, who.tenantId);
    if (!(await locks.units([unitId], 'share')).has(unitId)) throw notFound('Unit');
    const row = (await locks.unitRows(unitId, { items: [itemId] })).get(itemId);
    if (!row) throw notFound('Stock row');
    const location = { kind: 'unit', id: unitId } as const;
    const used = Math.min(quantity, row.quantity);
    const after = used === 0 ? 0 : await changeStock(tx, location, itemId, -used, 'consumption', { tenantId: who.tenantId, userId: who.userId });
    if (after === null) throw new ConcurrentChange(`stock row of item ${itemId} at unit ${unitId} changed under its lock`);
    return {
      unit_quantity: after,
      garage_quantity: null,
      status: stockStatus(after, row.minimum),
      movement_ids: await movementsWrittenAt(tx, who.tenantId, location, [itemId]),
    };
  });
}
