/**
 * Reading the item quantities of a pick list (GET /api/garages/:id/pick-list, contracts/forecast.ts):
 * the garage's stock lists only the items it holds, so an item not listed has 0; the lines' items
 * are named once per answer; what the garage cannot cover of each line follows from its stock and
 * the lines in the answer's order. The Pick list screen, the morning email and the browser tests read
 * them through here so that the rule lives in one place; so does the garage's allocation of its
 * stock over the lines, which the server answers and the screen plans again with typed quantities.
 */
import type { ItemQuantity, PickListAnswer } from './contracts/forecast';

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
 * The name of an item of the answer's lines, from its `items` (each named once).
 * @returns a function of an item id giving its name ('' for an item the answer does not name).
 */
export function itemNames(answer: Pick<PickListAnswer, 'items'>): (itemId: string) => string {
  const byItem = new Map(answer.items.map((item) => [item.item_id, item.item_name]));
  return (itemId) => byItem.get(itemId) ?? '';
}

/**
 * Of each line, what of its `bring` the garage cannot cover once the properties listed before
 * have taken theirs ({@link garageAllocation} over the answer's properties in their order).
 * @returns a function of a property id and an item id giving pieces (0 when the garage covers the line in full).
 */
export function lineShortfalls(answer: Pick<PickListAnswer, 'garage_stock' | 'properties'>): (unitId: string, itemId: string) => number {
  const take = garageAllocation(garageQuantities(answer));
  const short = new Map<string, number>();
  for (const property of answer.properties) {
    for (const line of property.lines) {
      const missing = take(line.item_id, line.bring);
      if (missing > 0) short.set(`${property.unit_id} ${line.item_id}`, missing);
    }
  }
  return (unitId, itemId) => short.get(`${unitId} ${itemId}`) ?? 0;
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
