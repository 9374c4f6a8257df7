/**
 * The rules of the Pick list screen (docs/product.md "Screens: Pick list"): the quantity typed on
 * each line (a whole number from 0, the shared field rule), what the garage can still cover of it
 * once the properties listed before have taken theirs, and the toast of a delivery.
 */
import { wholeNumber } from '../../../common/contracts/fields';
import type { PickListUnit } from '../../../common/contracts/forecast';
import { garageAllocation } from '../../../common/pick-list';
import { numberText } from '../../lib/number-text';

/** A line's typed quantity: empty reads as 0; a fraction, a negative or more than 1,000,000 is refused with the field's message. */
export const lineQuantity = numberText(wholeNumber('Quantity'));

/** The key of a line's typed quantity in the screen's state. */
export const lineKey = (unitId: string, itemId: string): string => `${unitId}:${itemId}`;

/** A line as the screen shows it: what is typed, whether it is a valid quantity, and what the garage cannot cover. */
export interface PlannedLine {
  itemId: string;
  /** The text typed, or the server's `bring` when nothing was typed yet. */
  text: string;
  /** The quantity, or null with `error` when the text is refused. */
  quantity: number | null;
  error?: string;
  /** Of `quantity`, what the garage's stock cannot cover after the lines of properties listed before (pieces). */
  short: number;
}

/**
 * Plans every line of `properties` (in the server's arrival order) with the quantities typed in
 * `typed` (by {@link lineKey}; a line not typed takes its `bring`). The garage's stock of an item
 * now (`garageQuantity`, pieces by item id, as common/pick-list.ts garageQuantities reads it)
 * goes to the properties in that order, as the delivery round would take it (common/pick-list.ts
 * `garageAllocation`).
 * @returns the planned lines, by {@link lineKey}.
 */
export function planLines(
  properties: readonly PickListUnit[],
  garageQuantity: (itemId: string) => number,
  typed: ReadonlyMap<string, string>,
): Map<string, PlannedLine> {
  const take = garageAllocation(garageQuantity);
  const planned = new Map<string, PlannedLine>();
  for (const property of properties) {
    for (const line of property.lines) {
      const key = lineKey(property.unit_id, line.item_id);
      const text = typed.get(key) ?? String(line.bring);
      const parsed = lineQuantity.safeParse(text.trim());
      const quantity = parsed.success ? parsed.data : null;
      const short = take(line.item_id, quantity ?? 0);
      planned.set(key, {
        itemId: line.item_id,
        text,
        quantity,
        error: parsed.success ? undefined : parsed.error.issues[0]?.message,
        short,
      });
    }
  }
  return planned;
}

/**
 * The lines to send for one property: those with a quantity above 0, each named by `nameOf`
 * (common/pick-list.ts `itemNames`).
 * @returns the lines, or the first field message when a typed quantity is refused.
 */
export function deliveryLines(
  property: PickListUnit,
  planned: ReadonlyMap<string, PlannedLine>,
  nameOf: (itemId: string) => string,
): { lines: { item_id: string; item_name: string; quantity: number }[] } | { error: string } {
  const lines: { item_id: string; item_name: string; quantity: number }[] = [];
  for (const line of property.lines) {
    const plan = planned.get(lineKey(property.unit_id, line.item_id));
    if (!plan) continue;
    if (plan.quantity === null) return { error: `${nameOf(line.item_id)}: ${plan.error ?? 'Quantity must be a whole number'}` };
    if (plan.quantity > 0) lines.push({ item_id: line.item_id, item_name: nameOf(line.item_id), quantity: plan.quantity });
  }
  return { lines };
}

/**
 * The toast of a delivery (docs/product.md "Messages"): 'Delivered to Beach House: 3 Bath Towel,
 * 2 Coffee Pods' — the quantities the server moved, named from `names` (item id -> name).
 */
export function deliveredMessage(unitName: string, delivered: readonly { item_id: string; quantity: number }[], names: ReadonlyMap<string, string>): string {
  const parts = delivered.map((line) => `${line.quantity} ${names.get(line.item_id) ?? 'items'}`);
  return `Delivered to ${unitName}: ${parts.join(', ')}`;
}
