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
  /** The text typed, or, when nothing was typed yet, what the garage can give of the server's `bring` (`bring` less its shortfall). */
  text: string;
  /** The quantity, or null with `error` when the text is refused. */
  quantity: number | null;
  error?: string;
  /** Of a typed `quantity`, what the garage's stock cannot cover after the lines of properties listed before; of a pre-filled line, what it leaves of `bring` (pieces). */
  short: number;
}

/**
 * Plans every line of `properties` (in the server's arrival order) with the quantities typed in
 * `typed` (by {@link lineKey}; a line not typed takes its `bring`). The garage's stock of an item
 * now (`garageQuantity`, pieces by item id, as common/pick-list.ts garageQuantities reads it)
 * goes to the properties in that order, as the delivery round would take it (common/pick-list.ts
 * `garageAllocation`). A line not typed is pre-filled with `bring` less `shortfall` (common/pick-list.ts
 * `lineShortfalls` of the answer), so a delivery left as it is sends what the garage has.
 * @returns the planned lines, by {@link lineKey}.
 */
export function planLines(
  properties: readonly PickListUnit[],
  garageQuantity: (itemId: string) => number,
  typed: ReadonlyMap<string, string>,
  shortfall: (unitId: string, itemId: string) => number = () => 0,
): Map<string, PlannedLine> {
  const take = garageAllocation(garageQuantity);
  const planned = new Map<string, PlannedLine>();
  for (const property of properties) {
    for (const line of property.lines) {
      const key = lineKey(property.unit_id, line.item_id);
      const text = typed.get(key) ?? String(line.bring - shortfall(property.unit_id, line.item_id));
      const parsed = lineQuantity.safeParse(text.trim());
      const quantity = parsed.success ? parsed.data : null;
      const over = take(line.item_id, quantity ?? 0);
      // A pre-filled line holds what the garage has, so its shortfall is what it leaves of `bring`.
      const short = typed.has(key) ? over : over + shortfall(property.unit_id, line.item_id);
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
 * What a delivery of `sent` leaves behind of `property`'s lines (docs/product.md "Screens: Pick
 * list"): each line's `bring` less what was sent of its item, where that is above 0, in the lines'
 * order and named by `nameOf`. The property stays short of those until they are brought.
 */
export function leftBehind(
  property: PickListUnit,
  sent: readonly { item_id: string; quantity: number }[],
  nameOf: (itemId: string) => string,
): { item_id: string; item_name: string; quantity: number }[] {
  const sentOf = new Map(sent.map((line) => [line.item_id, line.quantity]));
  return property.lines.flatMap((line) => {
    const rest = line.bring - (sentOf.get(line.item_id) ?? 0);
    return rest > 0 ? [{ item_id: line.item_id, item_name: nameOf(line.item_id), quantity: rest }] : [];
  });
}

/**
 * The toast of a delivery (docs/product.md "Messages"): 'Delivered to Beach House: 3 Bath Towel,
 * 2 Coffee Pods' — the quantities the server moved, named from `names` (item id -> name).
 */
export function deliveredMessage(unitName: string, delivered: readonly { item_id: string; quantity: number }[], names: ReadonlyMap<string, string>): string {
  const parts = delivered.map((line) => `${line.quantity} ${names.get(line.item_id) ?? 'items'}`);
  return `Delivered to ${unitName}: ${parts.join(', ')}`;
}
