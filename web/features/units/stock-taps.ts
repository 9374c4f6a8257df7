/**
 * Quick taps on a stock row's minus and plus (docs/product.md "Screens: Unit detail"): no tap is
 * dropped. Each tap changes the number shown at once; taps add up while they come and go to the
 * server as one change when they pause — the net of plus (a transfer of n from the unit's garage)
 * and minus (n used) — and taps that arrive while a change is on its way wait for the next one.
 * When the server answers, the number shown becomes its quantity plus the taps still waiting; a
 * refusal takes the refused taps back. Taps waiting when the page is left are sent at once.
 */

/** How long taps must pause before they are sent, in milliseconds. */
export const TAP_PAUSE_MS = 500;

/** The taps of one stock row, in pieces: `waiting` not sent yet, `sending` sent and not answered; + from the garage, − used. */
export interface Taps {
  waiting: number;
  sending: number;
}

export const noTaps: Taps = { waiting: 0, sending: 0 };

/** The change one batch of taps asks for: a transfer of n from the garage, or n used. */
export interface TapChange {
  kind: 'transfer' | 'consume';
  quantity: number;
}

/**
 * One more tap, `step` +1 (plus) or −1 (minus), on a row showing `shown`; or why it is refused at
 * once: minus with nothing left to use, plus when the garage (`garageQuantity`, as last answered;
 * undefined when not known, and the server decides) has nothing more to give after the taps before it.
 */
export function addTap(taps: Taps, step: 1 | -1, shown: number, garageQuantity: number | undefined): Taps | 'nothing_to_use' | 'garage_empty' {
  if (step < 0 && shown <= 0) return 'nothing_to_use';
  if (step > 0 && garageQuantity !== undefined && Math.max(0, taps.sending) + Math.max(0, taps.waiting + 1) > garageQuantity) {
    return 'garage_empty';
  }
  return { ...taps, waiting: taps.waiting + step };
}

/**
 * The next change to send: the waiting taps, when they do not cancel out and nothing is on its way
 * (or `leaving`: the page is being left, so they go at once, beside a change on its way, whose
 * answer will not be shown); `taps` then has them as sending. Null when there is nothing to send now.
 */
export function takeBatch(taps: Taps, leaving = false): { taps: Taps; change: TapChange } | null {
  if ((taps.sending !== 0 && !leaving) || taps.waiting === 0) return null;
  const change: TapChange = taps.waiting > 0 ? { kind: 'transfer', quantity: taps.waiting } : { kind: 'consume', quantity: -taps.waiting };
  return { taps: { waiting: 0, sending: taps.sending + taps.waiting }, change };
}

/**
 * The taps and the number to show once the change on its way is answered: the server's quantity
 * (`answered`) plus the taps still waiting; or, when refused (`answered` null), the number shown
 * (`shown`) without the refused taps.
 */
export function settle(taps: Taps, shown: number, answered: number | null): { taps: Taps; shown: number } {
  return { taps: { ...taps, sending: 0 }, shown: answered === null ? shown - taps.sending : answered + taps.waiting };
}
