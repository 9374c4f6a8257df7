/**
 * Removing an item's stock row from a unit (docs/product.md "Screens: Unit detail"): the row is
 * counted down to 0 in the ledger (a `count` noted REMOVED_NOTE, which Undo opens again), then
 * deleted.
 */
import type { StockRowRemoval } from '../../../../common/contracts/stock';
import type { Db } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { movementsWrittenAt, removeStockRow } from '../ledger';
import { stockLocks } from '../locks';

/** The note of the `count` a removed stock row is counted to 0 with; undoing it opens the row again. */
export const REMOVED_NOTE = 'Removed from unit';

/**
 * Removes the unit's stock row of `itemId`. The unit is locked FOR UPDATE: deleting a stock row
 * waits for every change of the unit's stock in progress (they hold the unit FOR SHARE), so none
 * of them finds its row gone half-way.
 * @returns the ledger row to undo it (none when the row held nothing). @throws 404
 */
export async function removeUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string): Promise<StockRowRemoval> {
  return withTenant(db, who.tenantId, async (tx) => {
    const locks = stockLocks(tx, who.tenantId);
    if (!(await locks.units([unitId], 'update')).has(unitId)) throw notFound('Unit');
    if (!(await locks.unitRows(unitId, { items: [itemId] })).has(itemId)) throw notFound('Stock row');
    const location = { kind: 'unit', id: unitId } as const;
    await removeStockRow(tx, location, itemId, { tenantId: who.tenantId, userId: who.userId, note: REMOVED_NOTE });
    return { movement_ids: await movementsWrittenAt(tx, who.tenantId, location, [itemId]) };
  });
}
