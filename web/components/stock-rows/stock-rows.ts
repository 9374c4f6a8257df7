/**
 * Item-and-quantity rows of the stock forms (a garage's initial inventory and Edit Inventory, the
 * inventory of Add Unit): what the inputs hold, and the stock lines sent to the API. Rows without
 * an item or with a quantity of 0 or less are left out (docs/product.md "States and transitions", "Validation rules").
 */
import { z } from 'zod';
import type { StockLine } from '../../../common/contracts/stock';
import { parseWholeNumber } from '../../lib/number-text';

export interface StockRowDraft {
  /** '' until an item is picked. */
  item_id: string;
  quantity: string;
}

/** A new row: no item yet, quantity 1 (docs/product.md "Constants and limits"). */
export const emptyStockRow: StockRowDraft = { item_id: '', quantity: '1' };

/** The rows of a location's current stock, for editing. */
export function rowsFromStock(stock: readonly { item_id: string; quantity: number }[]): StockRowDraft[] {
  return stock.map((row) => ({ item_id: row.item_id, quantity: String(row.quantity) }));
}

/**
 * The stock lines of `rows`: quantities read as whole numbers, rows without an item or with a
 * quantity of 0 or less skipped, and an item picked twice counted once with both quantities.
 */
export function toStockLines(rows: readonly StockRowDraft[]): StockLine[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    const quantity = parseWholeNumber(row.quantity);
    if (!row.item_id || quantity <= 0) continue;
    totals.set(row.item_id, (totals.get(row.item_id) ?? 0) + quantity);
  }
  return Array.from(totals, ([item_id, quantity]) => ({ item_id, quantity }));
}

/** Form rows -> the `inventory` of a request body. */
export const stockRowsForm = z.array(z.object({ item_id: z.string(), quantity: z.string() })).transform(toStockLines);

/** The items picked in rows other than `index`; each item is offered once per form. */
export function itemsPickedElsewhere(rows: readonly StockRowDraft[], index: number): Set<string> {
  return new Set(rows.filter((row, i) => i !== index && row.item_id).map((row) => row.item_id));
}
