/**
 * The service-level pick lists of the backtest on a history small enough to follow by hand: one
 * property, one item, a stay departing every day, the use recorded as one weekly count.
 */
import { describe, expect, it } from 'vitest';
import { chanceAtMost } from '../../server/modules/forecast/service-level';
import { ratesKnownOn, type BacktestHistory, type BacktestStay } from './replay';
import { dispersionKnownOn, serviceLevelPolicy } from './service-level-policy';

const days = Array.from({ length: 16 }, (_, d) => `2026-03-${String(d + 1).padStart(2, '0')}`);
const stays: BacktestStay[] = Array.from({ length: 15 }, (_, k) => ({
  id: `s${k}`,
  unitId: 'u',
  guests: 2,
  arrival: days[k]!,
  departure: days[k + 1]!,
  arrivalDay: k,
  departureDay: k + 1,
}));
// 13 stays departed by day 14, 2 pieces each on average, all recorded on day 13 by one count.
const usage = [[days.map((_, d) => (d === 13 ? 26 : 0))]];
const history: BacktestHistory = { days, unitIds: ['u'], items: [{ id: 'i', name: 'Coffee Pods', category: 'Kitchen', minimum: 0, defaultPerStay: null }], usage, stays };

describe('pick lists at a service level in the backtest', () => {
  it('learns the dispersion from weekly blocks of recorded use against the stays that departed in them', () => {
    const rates = ratesKnownOn(history, 14);
    expect(rates.byUnit.get('u')!.get('i')!.perStay).toBeCloseTo(2, 9);
    // Block of days 0–6: 6 stays, 12 expected, 0 recorded; days 7–13: 7 stays, 14 expected, 26 recorded.
    expect(dispersionKnownOn(history, 14, rates).get('i')).toBeCloseTo((12 ** 2 + 12 ** 2) / 26, 9);
  });

  it('brings the least stock whose chance of covering the arriving stay reaches the level', () => {
    const phi = (12 ** 2 + 12 ** 2) / 26;
    const brought = serviceLevelPolicy(history, 1, 0.9)([0], 0, 14)[0]!;
    // The stay arriving on day 14 (mean 2) is the only one until the next delivery.
    expect(chanceAtMost(brought, 2, phi)).toBeGreaterThanOrEqual(0.9);
    expect(chanceAtMost(brought - 1, 2, phi)).toBeLessThan(0.9);
    expect(serviceLevelPolicy(history, 1, 0.9)([brought + 5], 0, 14)).toEqual([0]);
  });
});
