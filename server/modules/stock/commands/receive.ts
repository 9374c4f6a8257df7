/**
 * Stock received from outside (docs/product.md "Stock movements and statuses"): "Add Manually"
 * of a purchase adds pieces to a unit — `initial` for a new stock row, `external_addition` for an
 * existing one. Stock from the unit's garage is a transfer instead (transfer-to-unit.ts).
 */
import { sql } from 'drizzle-orm';
import type { AddUnitStockBody, StockMoveResult } from '../../../../common/contracts/stock';
import { stockStatus } from '../../../../common/contracts/stock';
import { queryRows, type Db } from '../../../db/client';
import { ConcurrentChange, withTenant } from '../../../db/tenant-tx';
import { notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { changeStock, ensureStockRow, movementsWrittenAt } from '../ledger';
import { stockLocks } from '../locks';

/**
 * Adds `body.quantity` of `body.item_id` to the unit.
 * @returns the quantity after, the row's status and the ledger row to undo it. @throws 404 for an unknown unit or item
 */
export async function receiveAtUnit(db: Db, who: TenantIdentity, unitId: string, body: AddUnitStockBody): Promise<StockMoveResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    const locks = stockLocks(tx, who.tenantId);
    if (!(await locks.units([unitId], 'share')).has(unitId)) throw notFound('Unit');
    const [item] = await queryRows<{ minimum: number }>(
      tx,
      sql`select minimum_threshold as minimum from items where tenant_id = ${who.tenantId} and id = ${body.item_id}`,
    );
    if (!item) throw notFound('Item');
    const location = { kind: 'unit', id: unitId } as const;
    const created = await ensureStockRow(tx, who.tenantId, location, body.item_id);
    const quantity = await changeStock(tx, location, body.item_id, body.quantity, created ? 'initial' : 'external_addition', {
      tenantId: who.tenantId,
      userId: who.userId,
    });
    if (quantity === null) throw new ConcurrentChange(`stock row of item ${body.item_id} at unit ${unitId} vanished`);
    return {
      unit_quantity: quantity,
      garage_quantity: null,
      status: stockStatus(quantity, Number(item.minimum)),
      movement_ids: await movementsWrittenAt(tx, who.tenantId, location, [body.item_id]),
    };
  });
}
