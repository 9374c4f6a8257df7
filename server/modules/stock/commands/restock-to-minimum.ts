/**
 * "Restock to minimum" (docs/product.md "Stock movements and statuses"): every stock row of a
 * unit below its item's minimum threshold — or only the row of one item — gets what it lacks
 * (minimum − quantity) from the unit's garage, as much of it as the garage holds, in one
 * transaction and one `restock` transfer. Setup fills its new properties by the same rule
 * (docs/decisions/027-first-day-setup.md).
 */
import { sql } from 'drizzle-orm';
import { isBelowMinimum, type RestockToMinimumResult } from '../../../../common/contracts/stock';
import { pgArray, queryRows, type Db, type Tx } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/session';
import { stockLocks } from '../locks';
import { noGarage } from '../refusals';
import { transferToUnits } from '../transfer';

/**
 * The rule inside the caller's tenant transaction. The rows are locked and read first, in the
 * lock order (the unit, its stock rows, the garage rows), so the quantities asked for are
 * computed from the latest values and nothing can change them before the transfer moves them;
 * a line the transfer still refuses is reported as not covered.
 * @returns what moved and what the garage could not cover, by item name, and the ledger rows to
 *   undo it; nothing to fill answers empty lists.
 * @throws 404 for an unknown unit, or a unit without a stock row of `itemId`;
 *   CONFLICT 'No garage assigned to this unit' when a row is to be filled.
 */
export async function fillUnitToMinimum(tx: Tx, who: TenantIdentity, unitId: string, itemId?: string): Promise<RestockToMinimumResult> {
  const tenantId = who.tenantId;
  const locks = stockLocks(tx, tenantId);
  const unit = (await locks.units([unitId], 'share')).get(unitId);
  if (!unit) throw notFound('Unit');
  // One row asked for is locked whatever its quantity, to tell a missing row (404) from a full one.
  const rows = await locks.unitRows(unitId, itemId ? { items: [itemId] } : 'belowMinimum');
  if (itemId && rows.size === 0) throw notFound('Stock row');
  const low = [...rows].filter(([, r]) => isBelowMinimum(r.quantity, r.minimum)).map(([id, r]) => ({ item_id: id, wanted: r.minimum - r.quantity }));
  if (low.length === 0) return { moved: [], short: [], movement_ids: [] };
  if (unit.garageId === null) throw noGarage();
  const held = await locks.garageRows(unit.garageId, { items: low.map((r) => r.item_id) });
  const named = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from items where tenant_id = ${tenantId} and id = any(${pgArray(low.map((r) => r.item_id))}::uuid[])`,
  );
  const nameOf = new Map(named.map((i) => [i.id, i.name]));
  const asked = low.map((r) => ({ ...r, item_name: nameOf.get(r.item_id)!, quantity: Math.min(r.wanted, held.get(r.item_id) ?? 0) }));
  const moving = asked.filter((a) => a.quantity > 0);
  const outcomes = moving.length === 0
    ? []
    : await transferToUnits(tx, tenantId, moving.map((a) => ({ unitId, itemId: a.item_id, quantity: a.quantity, userId: who.userId })), { type: 'restock' });
  const movedOf = new Map(moving.map((a, k) => [a.item_id, outcomes[k]!.kind === 'moved' ? a.quantity : 0]));
  const result: RestockToMinimumResult = {
    moved: [],
    short: [],
    movement_ids: outcomes.flatMap((o) => (o.kind === 'moved' ? [o.movementId] : [])),
  };
  for (const a of asked.sort((x, y) => x.item_name.localeCompare(y.item_name))) {
    const moved = movedOf.get(a.item_id) ?? 0;
    if (moved > 0) result.moved.push({ item_id: a.item_id, item_name: a.item_name, quantity: moved });
    if (moved < a.wanted) result.short.push({ item_id: a.item_id, item_name: a.item_name, missing: a.wanted - moved });
  }
  return result;
}

/** "Restock to minimum" of a unit (or one of its rows) in its own transaction; answers and throws as `fillUnitToMinimum`. */
export function restockToMinimum(db: Db, who: TenantIdentity, unitId: string, itemId?: string): Promise<RestockToMinimumResult> {
  return withTenant(db, who.tenantId, (tx) => fillUnitToMinimum(tx, who, unitId, itemId));
}
