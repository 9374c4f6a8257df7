/**
 * Reading the item quantities of a pick list (GET /api/garages/:id/pick-list, contracts/forecast.ts):
 * the garage's stock and a property's garage shortfalls list only the items with something to say,
 * so an item not listed has 0. The Pick list screen, the morning email and the browser tests read
 * them through here so that the rule lives in one place; so does the garage's allocation of its
 * stock over the lines, which the server answers and the screen plans again with typed quantities.
 */
import type { ItemQuantity, PickListAnswer, PickListUnit } from './contracts/forecast';

/** The quantity of an item id in `list` (pieces), 0 when it is not listed. */
function lookup(list: readonly ItemQuantity[]): (itemId: string) => number {
  // A map, not a search per call: the screen asks for every line on every keystroke.
  const byItem = new Map(list.map((entry) => [entry.item_id, entry.quantity]));
  return (itemId) => byItem.get(itemId) ?? 0;
}

/**
 * The garage's stock of an item now, from the answer's `garage_stock`.
 * @returns a function of an item id giving pieces (0 for an item the garage does not hold).
 */
export function garageQuantities(answer: Pick<PickListAnswer, 'garage_stock'>): (itemId: string) => number {
  return lookup(answer.garage_stock);
}

/**
 * Of a property's line, what of its `bring` the garage cannot cover once the properties listed
 * before have taken theirs, from the property's `garage_shortfalls`.
 * @returns a function of an item id giving pieces (0 when the garage covers the line in full).
 */
export function lineShortfalls(property: Pick<PickListUnit, 'garage_shortfalls'>): (itemId: string) => number {
  return lookup(property.garage_shortfalls);
}

/**
 * The garage's allocation of its stock over a pick list's lines taken in list order (docs/product.md
 * "Pick lists"): each line takes what is left of its item after the lines before it.
 * @param garageQuantity the garage's stock of an item now (pieces, by item id).
 * @returns `take(itemId, quantity)`, to call once per line in order: what of `quantity` the
 *   garage cannot cover (pieces, 0 when it covers all).
 */
export function garageAllocation(garageQuantity: (itemId: string) => number): (itemId: string, quantity: number) => number {
  const taken = new Map<string, number>();
  return (itemId, quantity) => {
    const before = taken.get(itemId) ?? 0;
    taken.set(itemId, before + quantity);
    return Math.max(0, quantity - Math.max(0, garageQuantity(itemId) - before));
  };
}
