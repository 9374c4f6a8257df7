import { describe, expect, it } from 'vitest';
import { addTap, noTaps, settle, takeBatch, type Taps } from './stock-taps';

/** Taps `steps` one after the other on a row showing `shown`, as quick taps do; returns the taps and the number shown. */
function tapAll(steps: (1 | -1)[], shown: number, garage?: number, start: Taps = noTaps): { taps: Taps; shown: number } | string {
  let taps = start;
  for (const step of steps) {
    const next = addTap(taps, step, shown, garage);
    if (typeof next === 'string') return next;
    taps = next;
    shown += step;
  }
  return { taps, shown };
}
const ok = (result: ReturnType<typeof tapAll>) => result as { taps: Taps; shown: number };

describe('quick taps on plus and minus (docs/product.md "Screens: Unit detail")', () => {
  it('adds up five quick taps on plus into one transfer of 5, and shows the server quantity when it answers', () => {
    const five = ok(tapAll([1, 1, 1, 1, 1], 2, 10));
    expect(five.shown).toBe(7);
    const batch = takeBatch(five.taps)!;
    expect(batch.change).toEqual({ kind: 'transfer', quantity: 5 });
    expect(settle(batch.taps, 7, 7)).toEqual({ taps: noTaps, shown: 7 });
    // Someone else used one meanwhile: the number shown is the server's.
    expect(settle(batch.taps, 7, 6).shown).toBe(6);
  });

  it('sends the net of plus and minus, and nothing when they cancel out', () => {
    expect(takeBatch(ok(tapAll([1, 1, 1, -1], 2, 10)).taps)!.change).toEqual({ kind: 'transfer', quantity: 2 });
    expect(takeBatch(ok(tapAll([-1, -1, -1], 5)).taps)!.change).toEqual({ kind: 'consume', quantity: 3 });
    expect(takeBatch(ok(tapAll([1, -1], 2, 10)).taps)).toBeNull();
  });

  it('keeps taps that come while a change is on its way for the next change', () => {
    const first = takeBatch(ok(tapAll([1, 1], 2, 10)).taps)!;
    const more = ok(tapAll([1, 1, 1], 4, 10, first.taps));
    expect(more.shown).toBe(7);
    expect(takeBatch(more.taps)).toBeNull();
    const answered = settle(more.taps, more.shown, 4);
    expect(answered.shown).toBe(7);
    expect(takeBatch(answered.taps)!.change).toEqual({ kind: 'transfer', quantity: 3 });
  });

  it('takes back the refused taps only', () => {
    const first = takeBatch(ok(tapAll([1, 1], 2, undefined)).taps)!;
    const more = ok(tapAll([1], 4, undefined, first.taps));
    expect(settle(more.taps, more.shown, null)).toEqual({ taps: { waiting: 1, sending: 0 }, shown: 3 });
  });

  it('refuses minus with nothing left and plus beyond what the garage holds, keeping the taps before', () => {
    expect(tapAll([-1], 0)).toBe('nothing_to_use');
    expect(tapAll([-1, -1, -1], 2)).toBe('nothing_to_use');
    expect(tapAll([1, 1, 1], 0, 2)).toBe('garage_empty');
    expect(ok(tapAll([1, 1], 0, 2)).shown).toBe(2);
    // Minus taps waiting give the garage nothing back, but plus taps cancel them out.
    expect(addTap(ok(tapAll([-1, -1], 3)).taps, 1, 1, 0)).toEqual({ waiting: -1, sending: 0 });
    // Not known: the server decides.
    expect(ok(tapAll([1, 1, 1, 1], 0, undefined)).taps).toEqual({ waiting: 4, sending: 0 });
  });

  it('sends the waiting taps at once when the page is left, even beside a change on its way', () => {
    const first = takeBatch(ok(tapAll([1, 1], 2, 10)).taps)!;
    const more = ok(tapAll([-1, -1, -1], 4, 10, first.taps));
    expect(takeBatch(more.taps)).toBeNull();
    expect(takeBatch(more.taps, true)).toEqual({ taps: { waiting: 0, sending: -1 }, change: { kind: 'consume', quantity: 3 } });
    expect(takeBatch(noTaps, true)).toBeNull();
  });

  it('counts a transfer on its way against the garage', () => {
    const sent = takeBatch(ok(tapAll([1, 1, 1], 0, 4)).taps)!.taps;
    expect(addTap(sent, 1, 3, 4)).toEqual({ waiting: 1, sending: 3 });
    expect(addTap({ waiting: 1, sending: 3 }, 1, 4, 4)).toBe('garage_empty');
  });
});
