/**
 * What the stock changes of Unit detail say in their toasts (docs/product.md "Messages", Units,
 * garages, items): what moved, and for "Restock to minimum" what the garage could not cover.
 */
import type { RestockToMinimumResult } from '../../../common/contracts/stock';

/** Plus taps, restock by quantity, Add Manually from the garage: '3 Bath Towel moved from Main Storage'. */
export const movedFromGarage = (quantity: number, itemName: string, garageName: string): string =>
  `${quantity} ${itemName} moved from ${garageName}`;

/** Minus taps: '2 Bath Towel used'. */
export const usedAtUnit = (quantity: number, itemName: string): string => `${quantity} ${itemName} used`;

/** Add Manually, received from outside: '6 Coffee Pods received from outside'. */
export const receivedFromOutside = (quantity: number, itemName: string): string => `${quantity} ${itemName} received from outside`;

const items = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

/**
 * The answer of "Restock to minimum" in words: what moved ('Restocked to minimum: 2 Bath Towel,
 * 9 Coffee Pods'), or, when the garage could not cover everything, how much each short item needs
 * and what the garage had ('Restocked 1 item. 2 items short: Bath Towel (needs 3, garage has 1),
 * Sponge (needs 4, garage has 0)'). `short` is true in that case.
 */
export function restockToMinimumMessage(result: RestockToMinimumResult): { text: string; short: boolean } {
  const moved = new Map(result.moved.map((m) => [m.item_id, m.quantity]));
  if (result.short.length === 0) {
    if (result.moved.length === 0) return { text: 'Everything is at its minimum already', short: false };
    return { text: `Restocked to minimum: ${result.moved.map((m) => `${m.quantity} ${m.item_name}`).join(', ')}`, short: false };
  }
  const shortItems = result.short.map((s) => {
    const had = moved.get(s.item_id) ?? 0;
    return `${s.item_name} (needs ${had + s.missing}, garage has ${had})`;
  });
  const done = result.moved.length > 0 ? `Restocked ${items(result.moved.length)}. ` : '';
  return { text: `${done}${items(result.short.length)} short: ${shortItems.join(', ')}`, short: true };
}
