/**
 * Quick taps on a stock row's minus and plus (docs/product.md "Screens: Unit detail"): no tap is
 * dropped. Each tap changes the number shown at once and is kept on the phone as it is shown
 * (web/lib/outbox/outbox.ts `addToTally`); taps add up in one change while they come and go to
 * the server when they pause — the net of plus (a transfer of n from the unit's garage) and minus
 * (n used). Taps that come while a change is on its way add up in the next one. When the server
 * answers, the number shown becomes its quantity plus the taps not yet answered; a refusal takes
 * the refused taps back.
 */

/** How long taps must pause before they are sent, in milliseconds. */
export const TAP_PAUSE_MS = 500;

/** The change a tally of taps asks for: a transfer of n from the garage, or n used. */
export interface TapChange {
  kind: 'transfer' | 'consume';
  quantity: number;
}

/** The change for taps adding up to `count` (+ plus, − minus); null when they cancel out. */
export function tapChange(count: number): TapChange | null {
  if (count === 0) return null;
  return count > 0 ? { kind: 'transfer', quantity: count } : { kind: 'consume', quantity: -count };
}

/**
 * Whether one more tap, `step` +1 (plus) or −1 (minus), may be made on a row showing `shown`:
 * minus is refused with nothing left to use; plus when the garage (`garageQuantity`, as last
 * answered; undefined when not known, and the server decides) has nothing more to give after the
 * taps not yet answered — `sent`, the tallies already sealed, and `open`, the one adding up.
 */
export function checkTap(step: 1 | -1, shown: number, garageQuantity: number | undefined, sent: readonly number[], open: number): 'ok' | 'nothing_to_use' | 'garage_empty' {
  if (step < 0 && shown <= 0) return 'nothing_to_use';
  if (step > 0 && garageQuantity !== undefined) {
    const taken = sent.reduce((sum, count) => sum + Math.max(0, count), 0) + Math.max(0, open + 1);
    if (taken > garageQuantity) return 'garage_empty';
  }
  return 'ok';
}
