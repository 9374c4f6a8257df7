/**
 * Stocktake (docs/product.md "Screens: Count", docs/decisions/026-stocktake.md): the counted
 * quantities of a unit or a garage become its stock, one `count` movement per row that changed,
 * in one transaction — unless the stock of a counted row moved after it was counted, which refuses
 * the whole count and writes nothing. A count at a unit that finds less is usage. The API's
 * inventory replace of a garage is a stocktake too.
 */
import { sql } from 'drizzle-orm';
import type { CountBody, CountLine, CountResult } from '../../../../common/contracts/count';
import type { GarageInventoryBody } from '../../../../common/contracts/stock';
import { pgArray, queryRows, type Db, type Tx } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/session';
import { assertItemsExist } from '../../items/service';
import { countStock, removeStockRow, setStock, type Location } from '../ledger';
import { stockLocks, type StockLocks } from '../locks';

/** The issue of a line whose stock moved after it was counted: 'Bath Towel is now 3, not 5 as when it was counted'. */
export const countMovedMessage = (itemName: string, now: number, expected: number): string =>
  `${itemName} is now ${now}, not ${expected} as when it was counted`;

/**
 * Locks the location — a garage FOR NO KEY UPDATE (its stocktakes take turns; units may still be
 * assigned to it), a unit FOR SHARE (the usage trigger locks it after the stock rows) — then its
 * stock rows of `itemIds`. @returns the quantities held, by item id. @throws 404 for an unknown location
 */
async function lockCounted(locks: StockLocks, location: Location, itemIds: string[]): Promise<Map<string, number>> {
  if (location.kind === 'garage') {
    if (!(await locks.garages([location.id], 'no key update')).has(location.id)) throw notFound('Garage');
    return locks.garageRows(location.id, { items: itemIds });
  }
  if (!(await locks.units([location.id], 'share')).has(location.id)) throw notFound('Unit');
  const rows = await locks.unitRows(location.id, { items: itemIds });
  return new Map([...rows].map(([id, r]) => [id, r.quantity]));
}

/**
 * Applies a count at `location` inside the caller's tenant transaction: compares each locked row
 * with the quantity the line expected (0 for an item the location does not hold), then writes by
 * `countStock`.
 * @returns the rows that changed, ordered by item name (empty when every line was right).
 * @throws 404 for an unknown location or an item that is not the tenant's; CONFLICT with one issue
 *   per line (path ['lines', i, 'expected']) when the stock of counted items moved since they were
 *   counted — nothing is written then.
 */
export async function countAt(tx: Tx, who: TenantIdentity, location: Location, lines: readonly CountLine[]): Promise<CountResult> {
  const { tenantId } = who;
  const locks = stockLocks(tx, tenantId);
  const ids = lines.map((l) => l.item_id);
  const current = await lockCounted(locks, location, ids);
  const items = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from items where tenant_id = ${tenantId} and id = any(${pgArray(ids)}::uuid[])`,
  );
  if (items.length !== lines.length) throw notFound('Item');
  const nameOf = new Map(items.map((i) => [i.id, i.name]));
  const issues = lines.flatMap((line, i) => {
    const now = current.get(line.item_id) ?? 0;
    return now === line.expected ? [] : [{ path: ['lines', i, 'expected'], message: countMovedMessage(nameOf.get(line.item_id)!, now, line.expected) }];
  });
  if (issues.length > 0) {
    const what = issues.length === 1 ? '1 counted item' : `${issues.length} counted items`;
    throw new AppError('CONFLICT', `The stock of ${what} changed while you counted. Nothing was saved: check and save again.`, issues);
  }
  const meta = { tenantId, userId: who.userId, note: 'Stocktake' };
  const changes = await countStock(tx, location, lines.map((l) => ({ itemId: l.item_id, quantity: l.counted })), meta);
  return {
    changed: changes
      .map((c) => ({ item_id: c.itemId, item_name: nameOf.get(c.itemId)!, previous: c.previous, quantity: c.quantity }))
      .sort((a, b) => a.item_name.localeCompare(b.item_name)),
  };
}

/** Count mode at a unit (members), in its own transaction; answers and throws as `countAt`. */
export function countUnit(db: Db, who: TenantIdentity, unitId: string, body: CountBody): Promise<CountResult> {
  return withTenant(db, who.tenantId, (tx) => countAt(tx, who, { kind: 'unit', id: unitId }, body.lines));
}

/** Count mode at a garage (members), in its own transaction; answers and throws as `countAt`. */
export function countGarage(db: Db, who: TenantIdentity, garageId: string, body: CountBody): Promise<CountResult> {
  return withTenant(db, who.tenantId, (tx) => countAt(tx, who, { kind: 'garage', id: garageId }, body.lines));
}

/**
 * The API's inventory replace of a garage (no screen since count mode), inside the caller's
 * tenant transaction: the garage's stock becomes exactly `inventory`; changed rows are `count`
 * movements, rows left out (or at 0) are counted to 0 and removed.
 * @throws 404 for an unknown garage or item
 */
export async function replaceGarageStock(tx: Tx, who: TenantIdentity, garageId: string, inventory: GarageInventoryBody['inventory']): Promise<void> {
  const locks = stockLocks(tx, who.tenantId);
  if (!(await locks.garages([garageId], 'no key update')).has(garageId)) throw notFound('Garage');
  await assertItemsExist(tx, who.tenantId, inventory.map((l) => l.item_id));
  const location = { kind: 'garage', id: garageId } as const;
  const meta = { tenantId: who.tenantId, userId: who.userId, note: 'Inventory count' };
  const keep = new Map(inventory.filter((l) => l.quantity > 0).map((l) => [l.item_id, l.quantity]));
  // Every stock row of the garage, locked in key order before any is changed.
  const current = await locks.garageRows(garageId, 'all');
  for (const itemId of current.keys()) {
    if (!keep.has(itemId)) await removeStockRow(tx, location, itemId, meta);
  }
  for (const [itemId, quantity] of [...keep].sort(([a], [b]) => a.localeCompare(b))) {
    await setStock(tx, location, itemId, quantity, meta);
  }
}
