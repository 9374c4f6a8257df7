import { describe, expect, it } from 'vitest';
import type { ModelStay, Rate } from './model';
import { bringsAtLevel, chanceAtMost, leastAtLevel, learnDispersion, MAX_DISPERSION, MIN_DISPERSION, stayChance, type StockedItem } from './service-level';

/** P(X ≤ n) of NB1 use with mean `mean` and dispersion `phi`, summed term by term (independent of the library). */
function cdf(mean: number, phi: number, n: number): number {
  if (phi === 1) {
    let term = Math.exp(-mean);
    let sum = term;
    for (let k = 0; k < n; k++) sum += term *= mean / (k + 1);
    return sum;
  }
  const r = mean / (phi - 1);
  const p = 1 / phi;
  let term = p ** r;
  let sum = term;
  for (let k = 0; k < n; k++) sum += term *= ((k + r) / (k + 1)) * (1 - p);
  return sum;
}

const perStay = (pieces: number): Rate => ({ perStay: pieces, perGuestNight: 0, fixedShare: 1, basis: 'property' });
const stay = (id: string, arrival: string, departure: string): ModelStay => ({ id, arrival, departure, guests: 2 });
const item = (quantity: number, minimum: number, pieces: number, dispersion = 1): StockedItem => ({ quantity, minimum, rate: perStay(pieces), dispersion });

describe('the spread of use and the bring at a service level', () => {
  it('finds the least stock at which a chance reaches a level, as the distribution functions count it', () => {
    for (const [mean, phi] of [[2, 1], [0.4, 1], [10, 3], [80, 2.5], [3, 12], [10, 0.25], [0.01, 50]] as const) {
      for (const level of [0.5, 0.8, 0.95, 0.99]) {
        const n = leastAtLevel(level, mean, phi);
        expect(chanceAtMost(n, mean, phi), `${mean} ${phi} ${level}`).toBeGreaterThanOrEqual(level);
        if (n > 0) expect(chanceAtMost(n - 1, mean, phi), `${mean} ${phi} ${level}`).toBeLessThan(level);
      }
    }
    expect(leastAtLevel(0.95, 0, 3)).toBe(0);
  });

  it('brings the same pieces as one piece at a time from the stock, for a property of many items', () => {
    // The allocation without its starting point (the rule's first form), written out here.
    const slow = (items: StockedItem[], stays: ModelStay[], today: string, level: number) => {
      const bring = items.map((it) => Math.max(it.quantity, it.minimum) - it.quantity);
      const at = () => stayChance(items, stays, today, bring);
      while (at() < level) {
        let best = -1;
        let bestChance = -1;
        for (let i = 0; i < items.length; i++) {
          bring[i]! += 1;
          const c = at();
          bring[i]! -= 1;
          if (c > bestChance) [best, bestChance] = [i, c];
        }
        bring[best]! += 1;
      }
      return bring;
    };
    const stays = [stay('a', '2026-06-14', '2026-06-16'), stay('b', '2026-06-16', '2026-06-18'), stay('c', '2026-06-18', '2026-06-21')];
    const items = Array.from({ length: 12 }, (_, i) => item(i % 4, 1 + (i % 3), 0.5 + (i % 5), 0.3 + (i % 4) * 1.5));
    for (const level of [0.8, 0.95, 0.99]) {
      const fast = bringsAtLevel(items, stays, '2026-06-15', level);
      const total = (ns: number[]) => ns.reduce((a, b) => a + b, 0);
      expect(total(fast), String(level)).toBe(total(slow(items, stays, '2026-06-15', level)));
      expect(stayChance(items, stays, '2026-06-15', fast)).toBeGreaterThanOrEqual(level);
    }
  });

  it('gives the chance of using at most n pieces, Poisson at dispersion 1, NB1 above and normal below', () => {
    for (const [mean, phi] of [
      [2, 1],
      [0.4, 1],
      [10, 3],
      [80, 2.5],
      [3, 12],
    ] as const) {
      for (const n of [0, 1, 3, 10, 90]) expect(chanceAtMost(n, mean, phi), `${mean} ${phi} ${n}`).toBeCloseTo(cdf(mean, phi, n), 9);
    }
    // Steadier than Poisson: the normal of variance φμ, up to n + ½.
    expect(chanceAtMost(10, 10, 0.25)).toBeCloseTo(0.6241, 4);
    expect(chanceAtMost(12, 10, 0.25)).toBeGreaterThan(chanceAtMost(12, 10, 1));
    expect(chanceAtMost(-1, 2, 1)).toBe(0);
    expect(chanceAtMost(0, 0, 3)).toBe(1);
    // More spread, less chance at the same stock above the mean.
    expect(chanceAtMost(25, 20, 4)).toBeLessThan(chanceAtMost(25, 20, 1));
  });

  it('learns the dispersion from blocks by the method of moments, between the floor and the cap', () => {
    expect(learnDispersion([])).toBe(1);
    expect(learnDispersion([{ observed: 3, expected: 0 }])).toBe(1);
    expect(learnDispersion([{ observed: 2, expected: 2 }])).toBe(MIN_DISPERSION);
    // (1 − 2)² + (3 − 2)² over 2 + 2: steadier than Poisson.
    expect(learnDispersion([{ observed: 1, expected: 2 }, { observed: 3, expected: 2 }])).toBe(0.5);
    // (0 − 2)² + (4 − 2)² over 2 + 2.
    expect(learnDispersion([{ observed: 0, expected: 2 }, { observed: 4, expected: 2 }])).toBe(2);
    expect(learnDispersion([{ observed: 1000, expected: 1 }])).toBe(MAX_DISPERSION);
  });

  const today = '2026-12-01';
  const underWay = stay('a', '2026-11-29', '2026-12-02');
  const next = stay('b', '2026-12-02', '2026-12-04');
  const later = stay('c', '2026-12-05', '2026-12-07');
  const stays = [later, underWay, next];

  it('brings, for one item, the least stock whose chance of covering every arrival reaches the level', () => {
    // Nothing arrives: nothing to bring, even below the minimum.
    expect(bringsAtLevel([item(0, 3, 2)], [underWay], today, 0.95)).toEqual([0]);
    // Three stays of 2 each, Poisson: P(X ≤ 10 | 6) = 0.957 and P(X ≤ 9 | 6) = 0.916.
    expect(bringsAtLevel([item(0, 0, 2)], stays, today, 0.95)).toEqual([10]);
    expect(bringsAtLevel([item(4, 0, 2)], stays, today, 0.95)).toEqual([6]);
    // A minimum of 6 before the last arrival: the first two stays' use (mean 4) must leave 6.
    const withMinimum = bringsAtLevel([item(0, 6, 2)], stays, today, 0.95)[0]!;
    expect(Math.min(cdf(6, 1, withMinimum), cdf(4, 1, withMinimum - 6))).toBeGreaterThanOrEqual(0.95);
    expect(Math.min(cdf(6, 1, withMinimum - 1), cdf(4, 1, withMinimum - 7))).toBeLessThan(0.95);
    // Enough there already.
    expect(bringsAtLevel([item(30, 0, 2)], stays, today, 0.95)).toEqual([0]);
    // The level and the spread raise what is brought.
    expect(bringsAtLevel([item(0, 0, 2)], [next], today, 0.5)[0]).toBeLessThan(bringsAtLevel([item(0, 0, 2)], [next], today, 0.95)[0]!);
    expect(bringsAtLevel([item(0, 0, 2, 4)], [next], today, 0.95)[0]).toBeGreaterThan(bringsAtLevel([item(0, 0, 2)], [next], today, 0.95)[0]!);
  });

  it('spends the stay’s level over its items where a piece buys most, the product of their chances reaching it', () => {
    const items = [item(0, 0, 2), item(0, 0, 20, 3), item(50, 0, 0.2), item(0, 4, 0)];
    const brought = bringsAtLevel(items, [next], today, 0.9);
    const chanceOf = (b: number[]) => cdf(2, 1, b[0]!) * cdf(20, 3, b[1]!) * cdf(0.2, 1, 50 + b[2]!) * (b[3]! >= 4 ? 1 : 0);
    expect(chanceOf(brought)).toBeGreaterThanOrEqual(0.9);
    // The well-stocked item gets nothing; the item used by no stay only its minimum.
    expect(brought[2]).toBe(0);
    expect(brought[3]).toBe(4);
    // One piece fewer of either used item falls below the level: none is wasted.
    expect(chanceOf([brought[0]! - 1, brought[1]!, 0, 4])).toBeLessThan(0.9);
    expect(chanceOf([brought[0]!, brought[1]! - 1, 0, 4])).toBeLessThan(0.9);
    // Each item's own chance is above the stay's: the level is shared, not given to each.
    expect(cdf(2, 1, brought[0]!)).toBeGreaterThan(0.9);
  });
});
