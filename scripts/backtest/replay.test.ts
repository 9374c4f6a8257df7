/**
 * The backtest's arithmetic on a history small enough to follow by hand: one property, one item,
 * three stays of two nights, the ledger's usage on their departure days.
 */
import { describe, expect, it } from 'vitest';
import { minimumPolicy, pickListPolicy, replayForecast, replayPolicy, wape, type BacktestHistory } from './replay';

const days = ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06'];
const stay = (id: string, arrivalDay: number, departureDay: number) => ({
  id,
  unitId: 'u',
  arrivalDay,
  departureDay,
  arrival: `2026-01-0${arrivalDay + 1}`,
  departure: `2026-01-0${departureDay + 1}`,
  guests: 2,
});

/** Stays 0→2, 2→4, 4→6; 6 used at the first checkout, 3 at the second, 1 lost on day 5. */
const history: BacktestHistory = {
  days,
  unitIds: ['u'],
  items: [{ id: 'tp', name: 'Toilet Paper', category: 'Paper Goods', minimum: 2, defaultPerStay: 3 }],
  usage: [[[0, 0, 6, 0, 3, 1]]],
  stays: [stay('s1', 0, 2), stay('s2', 2, 4), stay('s3', 4, 6)],
};

describe('forecast backtest', () => {
  it('computes WAPE as the absolute errors over what was used', () => {
    expect(wape(3, 12)).toBe(0.25);
    expect(wape(0, 5)).toBe(0);
    expect(wape(2, 0)).toBeNull();
  });

  it('forecasts the stays departing in each window at the rates known that day, against both baselines', () => {
    const { overall, byCategory, origins } = replayForecast(history, { firstDay: 3, horizon: 2, averageDays: 2 });
    // Days 3 and 4 start a whole window of 2 days. On both, the only stay departed is s1 (6 used):
    // 6 a stay. Day 3: s2 departs in [3, 5): forecast 6, used 3; the average of days 1–2 is 3 a
    // day, 6 over 2 days; the minimum plans 2. Day 4: s2 departs in [4, 6): forecast 6, used
    // 3 + 1; average of days 2–3: 6.
    expect(origins).toBe(2);
    expect(overall).toEqual({ actual: 7, forecast: 12, model: 3 + 2, average: 3 + 2, minimum: 1 + 2, windows: 2 });
    expect(byCategory.get('Paper Goods')).toEqual(overall);
    expect(wape(overall.model, overall.actual)).toBeCloseTo(5 / 7, 10);
  });

  it('replays the pick lists and the minimum rule from the same stock, counting short stays and pieces moved', () => {
    const start = [[3]];
    // Minimum rule: day 2, 3 − 6 leaves 0, s2 arrives, 2 brought; s2 uses 3: short. Day 4: 2 − 3
    // leaves 0, s3 arrives, 2 brought; s3 departs after the history and is not checked.
    expect(replayPolicy(history, start, minimumPolicy(history), 1)).toEqual({ stays: 1, shortStays: 1, piecesMoved: 4 });
    // Pick lists: day 2, nothing used yet, so the item's default of 3 a stay: bring 3, s2 uses 3,
    // not short. Day 4: 3 − 3 leaves 0; 6 a stay learned from s1: bring 6.
    expect(replayPolicy(history, start, pickListPolicy(history, 2), 1)).toEqual({ stays: 1, shortStays: 0, piecesMoved: 9 });
    // The starting stock is not changed by a replay.
    expect(start).toEqual([[3]]);
  });
});
