/**
 * Count mode (stocktake) at one location, a garage or a unit (docs/product.md "Screens: Count",
 * docs/decisions/026-stocktake.md): the counted quantities become the stock, one `count` movement
 * per row that changed, all in the caller's transaction — unless the stock of a counted row moved
 * after it was counted, which refuses the whole count and writes nothing.
 */
import { sql } from 'drizzle-orm';
import type { CountLine, CountResult } from '../../../common/contracts/count';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { countStock, type Location } from './ledger';

/** The issue of a line whose stock moved after it was counted: 'Bath Towel is now 3, not 5 as when it was counted'. */
export const countMovedMessage = (itemName: string, now: number, expected: number): string =>
  `${itemName} is now ${now}, not ${expected} as when it was counted`;

/**
 * Applies a count at `location`, which the caller has locked first (the garage, or the unit FOR
 * SHARE), as the lock order of docs/decisions/009-ledger-lock-order.md asks: this locks the
 * location's stock rows of the counted items in key order, compares each with the quantity the
 * line expected (0 for an item the location does not hold), then writes by `countStock`.
 * @returns the rows that changed, ordered by item name (empty when every line was right).
 * @throws 404 'Item not found' for an item that is not one of the tenant's; CONFLICT with one
 *   issue per line (path ['lines', i, 'expected']) when the stock of counted items moved since
 *   they were counted — nothing is written then.
 */
export async function applyCount(
  tx: Tx,
  tenantId: string,
  userId: string | null,
  location: Location,
  lines: readonly CountLine[],
): Promise<CountResult> {
  const ids = pgArray(lines.map((l) => l.item_id));
  const items = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from items where tenant_id = ${tenantId} and id = any(${ids}::uuid[])`,
  );
  if (items.length !== lines.length) throw notFound('Item');
  const nameOf = new Map(items.map((i) => [i.id, i.name]));

  const table = location.kind === 'unit' ? sql.raw('unit_inventory') : sql.raw('garage_inventory');
  const column = location.kind === 'unit' ? sql.raw('unit_id') : sql.raw('garage_id');
  const held = await queryRows<{ item_id: string; quantity: number }>(
    tx,
    sql`select item_id, quantity from ${table}
        where tenant_id = ${tenantId} and ${column} = ${location.id} and item_id = any(${ids}::uuid[])
        order by item_id for update`,
  );
  const current = new Map(held.map((r) => [r.item_id, Number(r.quantity)]));
  const issues = lines.flatMap((line, i) => {
    const now = current.get(line.item_id) ?? 0;
    return now === line.expected ? [] : [{ path: ['lines', i, 'expected'], message: countMovedMessage(nameOf.get(line.item_id)!, now, line.expected) }];
  });
  if (issues.length > 0) {
    const what = issues.length === 1 ? '1 counted item' : `${issues.length} counted items`;
    throw new AppError('CONFLICT', `The stock of ${what} changed while you counted. Nothing was saved: check and save again.`, issues);
  }

  const meta = { tenantId, userId, note: 'Stocktake' };
  const changes = await countStock(tx, location, lines.map((l) => ({ itemId: l.item_id, quantity: l.counted })), meta);
  return {
    changed: changes
      .map((c) => ({ item_id: c.itemId, item_name: nameOf.get(c.itemId)!, previous: c.previous, quantity: c.quantity }))
      .sort((a, b) => a.item_name.localeCompare(b.item_name)),
  };
}
