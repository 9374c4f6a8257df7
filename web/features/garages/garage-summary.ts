/**
 * A garage's stock in a few words for the Garages list (docs/product.md "Screens: Garages"): how
 * many items it holds, how many are low and how many are out, by the one status rule of stock rows
 * (common/contracts/stock.ts `stockStatus`, docs/product.md "Stock movements and statuses").
 */
import { stockStatus, type Garage, type Item } from '../../../common/contracts/stock';

/** Counts of a garage's stock rows: `items` rows, `low` low, `out` critical (at 0). */
export interface GarageSummary {
  items: number;
  low: number;
  out: number;
}

/**
 * Counts `garage`'s rows by status, with each item's minimum threshold from `items` (the Items
 * list); null while that list is not known, when only the number of rows can be said.
 */
export function garageSummary(garage: Pick<Garage, 'inventory'>, items: readonly Pick<Item, 'id' | 'minimum_threshold'>[] | undefined): GarageSummary | null {
  if (!items) return null;
  const minimum = new Map(items.map((item) => [item.id, item.minimum_threshold]));
  const summary: GarageSummary = { items: garage.inventory.length, low: 0, out: 0 };
  for (const row of garage.inventory) {
    const status = stockStatus(row.quantity, minimum.get(row.item_id) ?? 0);
    if (status === 'critical') summary.out += 1;
    else if (status === 'low') summary.low += 1;
  }
  return summary;
}

/** '31 items' — the number of stock rows ('1 item'). */
export function itemsText(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}
