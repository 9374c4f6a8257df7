import { describe, expect, it } from 'vitest';
import { checkTap, tapChange } from './stock-taps';

describe('quick taps on plus and minus (docs/product.md "Screens: Unit detail")', () => {
  it('sends the net of plus and minus, and nothing when they cancel out', () => {
    expect(tapChange(5)).toEqual({ kind: 'transfer', quantity: 5 });
    expect(tapChange(-3)).toEqual({ kind: 'consume', quantity: 3 });
    expect(tapChange(0)).toBeNull();
  });

  it('refuses minus with nothing left to use', () => {
    expect(checkTap(-1, 0, undefined, [], 0)).toBe('nothing_to_use');
    expect(checkTap(-1, 1, undefined, [], -1)).toBe('ok');
  });

  it('refuses plus beyond what the garage holds, counting the taps adding up', () => {
    expect(checkTap(1, 0, 2, [], 1)).toBe('ok');
    expect(checkTap(1, 0, 2, [], 2)).toBe('garage_empty');
    // Minus taps adding up give the garage nothing back, but plus taps cancel them out.
    expect(checkTap(1, 1, 0, [], -2)).toBe('ok');
    // Not known: the server decides.
    expect(checkTap(1, 0, undefined, [], 40)).toBe('ok');
  });

  it('counts a transfer on its way against the garage, and a use on its way not at all', () => {
    expect(checkTap(1, 3, 4, [3], 0)).toBe('ok');
    expect(checkTap(1, 4, 4, [3], 1)).toBe('garage_empty');
    expect(checkTap(1, 4, 1, [-3], 0)).toBe('ok');
  });
});
