/**
 * "Mark as delivered" of a pick list (docs/product.md "Pick lists"): the lines become `restock`
 * transfers from the property's garage (noted 'Pick list'), in one transaction, all or nothing,
 * with the webhook event `pick_list.delivered`.
 */
import { sql } from 'drizzle-orm';
import type { DeliverPickListResult } from '../../../../common/contracts/forecast';
import { pgArray, queryRows, type Db } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { stockLocks } from '../locks';
import { recordPickListDelivered } from '../pick-list-event';
import { noGarage } from '../refusals';
import { transferToUnits } from '../transfer';

/**
 * Delivers `lines` (pieces of items, each > 0) to the unit from its garage. The unit is held FOR
 * SHARE so its garage stays; the transfer locks the stock rows in the lock order.
 * @returns the ledger rows written at the property (what Undo reverses) and what was delivered.
 * @throws 404 'Unit not found' | 'Stock row not found' (an item the property holds no row of);
 *   CONFLICT 'No garage assigned to this unit' | '{garage} has only {n} {item} ({m} needed), …'.
 */
export async function deliverPickList(
  db: Db,
  who: TenantIdentity,
  unitId: string,
  lines: { item_id: string; quantity: number }[],
): Promise<DeliverPickListResult> {
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
    const unit = (await stockLocks(tx, tenantId).units([unitId], 'share')).get(unitId);
    if (!unit) throw notFound('Unit');
    if (!unit.garageId) throw noGarage();
    const outcomes = await transferToUnits(
      tx,
      tenantId,
      lines.map((l) => ({ unitId, itemId: l.item_id, quantity: l.quantity, userId: who.userId })),
      { type: 'restock', note: 'Pick list' },
    );
    if (outcomes.some((o) => o.kind === 'no_stock_row')) throw notFound('Stock row');
    const shortIds = lines.filter((_, k) => outcomes[k]!.kind === 'garage_short').map((l) => l.item_id);
    if (shortIds.length > 0) {
      // The transfer holds the garage's rows now: what it read is what this names.
      const held = await queryRows<{ item_id: string; name: string; quantity: number | null }>(
        tx,
        sql`select i.id as item_id, i.name, g.quantity from items i
            left join garage_inventory g on g.tenant_id = i.tenant_id and g.item_id = i.id and g.garage_id = ${unit.garageId}
            where i.tenant_id = ${tenantId} and i.id = any(${pgArray(shortIds)}::uuid[])`,
      );
      const [garage] = await queryRows<{ name: string }>(tx, sql`select name from garages where tenant_id = ${tenantId} and id = ${unit.garageId}`);
      const byId = new Map(held.map((h) => [h.item_id, h]));
      const parts = lines
        .filter((l) => shortIds.includes(l.item_id))
        .map((l) => `${Number(byId.get(l.item_id)?.quantity ?? 0)} ${byId.get(l.item_id)?.name ?? 'Deleted item'} (${l.quantity} needed)`);
      throw new AppError('CONFLICT', `${garage!.name} has only ${parts.join(', ')}`);
    }
    await recordPickListDelivered(tx, tenantId, { unitId, garageId: unit.garageId, lines, now: new Date() });
    return {
      movement_ids: outcomes.flatMap((o) => (o.kind === 'moved' ? [o.movementId] : [])),
      delivered: lines.map((l) => ({ item_id: l.item_id, quantity: l.quantity })),
    };
  });
}
