/**
 * Item-and-quantity rows of the stock forms (a garage's initial inventory, the inventory of Add
 * Unit): what the inputs hold, and the stock lines sent to the API. A quantity is
 * a whole number from 0 (a fraction is refused with the row's message, never cut); rows without an
 * item or at 0 are left out (docs/product.md "States and transitions", "Validation rules").
 */
import { z } from 'zod';
import { stockLine, type StockLine } from '../../../common/contracts/stock';
import { numberText, parseNumber } from '../../lib/number-text';

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
 * The stock lines of checked rows: rows without an item or at 0 left out, and an item picked
 * twice counted once with both quantities.
 */
function toStockLines(rows: readonly { item_id: string; quantity: number }[]): StockLine[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (!row.item_id || row.quantity <= 0) continue;
    totals.set(row.item_id, (totals.get(row.item_id) ?? 0) + row.quantity);
  }
  return Array.from(totals, ([item_id, quantity]) => ({ item_id, quantity }));
}

/** Form rows -> the `inventory` of a request body; each row's quantity is checked by the contract's rule. */
export const stockRowsForm = z
  .array(z.object({ item_id: z.string(), quantity: numberText(stockLine.shape.quantity) }))
  .transform(toStockLines);

/**
 * What a save of new stock (Add Garage, Add Unit) leaves out of `rows`, said instead of a plain
 * success: '1 row skipped: quantity must be at least 1', '2 rows skipped: no item selected', both
 * joined by '; '; undefined when every row is saved.
 */
export function skippedRowsMessage(rows: readonly StockRowDraft[]): string | undefined {
  const rowsOf = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'} skipped`;
  const noItem = rows.filter((row) => !row.item_id).length;
  const empty = rows.filter((row) => row.item_id && parseNumber(row.quantity) <= 0).length;
  const parts = [
    ...(empty > 0 ? [`${rowsOf(empty)}: quantity must be at least 1`] : []),
    ...(noItem > 0 ? [`${rowsOf(noItem)}: no item selected`] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** The items picked in rows other than `index`; each item is offered once per form. */
export function itemsPickedElsewhere(rows: readonly StockRowDraft[], index: number): Set<string> {
  return new Set(rows.filter((row, i) => i !== index && row.item_id).map((row) => row.item_id));
}
