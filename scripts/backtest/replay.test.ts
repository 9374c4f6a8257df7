/**
 * The backtest's arithmetic on a history small enough to follow by hand: one property, one item,
 * three stays of two nights, the ledger's usage on their departure days.
 */
import { describe, expect, it } from 'vitest';
import { backtestPolicies, MINIMUM_FACTORS, minimumPiecesAt, replayPolicies, servedShare, SERVICE_LEVELS } from './policy-table';
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

  it('fills every item below factor × its minimum up to that level, in whole pieces', () => {
    const twoItems: BacktestHistory = {
      ...history,
      items: [history.items[0]!, { id: 'mat', name: 'Bath Mat', category: 'Linens', minimum: 1, defaultPerStay: null }],
      usage: [[[0, 0, 6, 0, 3, 1], [0, 0, 0, 0, 0, 0]]],
    };
    // Levels: ×1 → 2 and 1; ×1.5 → 3 and 2 (1.5 rounded up); ×1.2 → 3 and 2 (2.4 and 1.2 rounded up); ×3 → 6 and 3.
    expect(minimumPolicy(twoItems)([1, 1], 0, 0)).toEqual([1, 0]);
    expect(minimumPolicy(twoItems, 1.5)([0, 0], 0, 0)).toEqual([3, 2]);
    expect(minimumPolicy(twoItems, 1.2)([0, 0], 0, 0)).toEqual([3, 2]);
    expect(minimumPolicy(twoItems, 3)([4, 5], 0, 0)).toEqual([2, 0]);
    // Stock above the level is left as it is.
    expect(minimumPolicy(twoItems, 1.5)([5, 2], 0, 0)).toEqual([0, 0]);
  });

  it('replays the scaled minimum rule: a higher level brings more and covers the stay the minimum left short', () => {
    const start = [[3]];
    // ×1.5 (level 3): day 2, 3 − 6 leaves 0, 3 brought; s2 uses 3, not short. Day 4: 3 − 3
    // leaves 0, 3 brought.
    expect(replayPolicy(history, start, minimumPolicy(history, 1.5), 1)).toEqual({ stays: 1, shortStays: 0, piecesMoved: 6 });
    // ×3 (level 6): day 2, 6 brought; day 4, 6 − 3 leaves 3, 3 brought.
    expect(replayPolicy(history, start, minimumPolicy(history, 3), 1)).toEqual({ stays: 1, shortStays: 0, piecesMoved: 9 });
  });

  it('lists the pick lists, at each service level, then the minimum rule at each factor, each replayed from the same stock', () => {
    const rows = backtestPolicies(history, 2);
    expect(rows.map((r) => r.key)).toEqual([
      'pickLists', 'serviceLevel80', 'serviceLevel90', 'serviceLevel95', 'serviceLevel98',
      'minimumX1', 'minimumX1.5', 'minimumX2', 'minimumX3', 'minimumX4', 'minimumX6',
    ]);
    expect(rows.map((r) => r.target)).toEqual([undefined, ...SERVICE_LEVELS, ...MINIMUM_FACTORS.map(() => undefined)]);
    expect(MINIMUM_FACTORS).toEqual([1, 1.5, 2, 3, 4, 6]);
    const results = replayPolicies(history, [[3]], rows, 1).filter((r) => r.target === undefined);
    expect(results.map(({ key, shortStays, piecesMoved }) => ({ key, shortStays, piecesMoved }))).toEqual([
      { key: 'pickLists', shortStays: 0, piecesMoved: 9 },
      { key: 'minimumX1', shortStays: 1, piecesMoved: 4 },
      { key: 'minimumX1.5', shortStays: 0, piecesMoved: 6 },
      { key: 'minimumX2', shortStays: 0, piecesMoved: 7 },
      { key: 'minimumX3', shortStays: 0, piecesMoved: 9 },
      { key: 'minimumX4', shortStays: 0, piecesMoved: 11 },
      { key: 'minimumX6', shortStays: 0, piecesMoved: 15 },
    ]);
    expect(results[2]!.label).toBe('Restock to minimum ×1.5');
  });

  it('reads off the threshold rule’s pieces at a share served, between the factors around it', () => {
    const row = (key: string, stays: number, shortStays: number, piecesMoved: number) => ({ key, label: key, stays, shortStays, piecesMoved });
    const results = [row('pickLists', 10, 0, 1), row('minimumX1', 10, 6, 100), row('minimumX2', 10, 2, 200), row('minimumX3', 10, 1, 300)];
    expect(servedShare(results[1]!)).toBeCloseTo(0.4, 12);
    expect(servedShare(row('none', 0, 0, 0))).toBeNull();
    // 60 % served lies halfway between ×1 (40 %) and ×2 (80 %).
    expect(minimumPiecesAt(results, 0.6)).toBeCloseTo(150, 9);
    expect(minimumPiecesAt(results, 0.3)).toBe(100);
    expect(minimumPiecesAt(results, 0.9)).toBeCloseTo(300, 9);
    expect(minimumPiecesAt(results, 0.95)).toBeNull();
  });

  describe('a history that knows each stay\'s true use apart from what was recorded', () => {
    // The same stays and use (6, 3, then 2 after the history), but counted once a week: the 9
    // pieces s1 and s2 used are recorded together on day 5.
    const counted: BacktestHistory = {
      ...history,
      usage: [[[0, 0, 0, 0, 0, 9]]],
      stays: [
        { ...stay('s1', 0, 2), trueUse: [6] },
        { ...stay('s2', 2, 4), trueUse: [3] },
        { ...stay('s3', 4, 6), trueUse: [2] },
      ],
    };

    it('takes the true use off the stock on the departure day and judges the stay by it', () => {
      // As the recorded case above: s1's 6 leave on day 2, 2 brought, s2 uses 3: short.
      expect(replayPolicy(counted, [[3]], minimumPolicy(counted), 1)).toEqual({ stays: 1, shortStays: 1, piecesMoved: 4 });
      // Without the true use, the recorded usage (nothing until day 5) hides it.
      const recordedOnly = { ...counted, stays: counted.stays.map(({ trueUse: _, ...s }) => s) };
      expect(replayPolicy(recordedOnly, [[3]], minimumPolicy(recordedOnly), 1)).toEqual({ stays: 1, shortStays: 0, piecesMoved: 0 });
    });

    it('scores the forecast against the true use while the model and the average learn from the recorded usage', () => {
      // Nothing is recorded before day 5: the model takes the item's default (3 a stay) and the
      // average 0. Windows [3, 5) and [4, 6) each hold s2's departure: 3 truly used.
      const { overall } = replayForecast(counted, { firstDay: 3, horizon: 2, averageDays: 2 });
      expect(overall).toEqual({ actual: 6, forecast: 6, model: 0, average: 6, minimum: 2, windows: 2 });
    });

    it('refuses a history where only some stays carry a true use', () => {
      const mixed = { ...counted, stays: [counted.stays[0]!, stay('s2', 2, 4)] };
      expect(() => replayPolicy(mixed, [[3]], minimumPolicy(mixed), 1)).toThrow(/1 of 2 stays carry a true use/);
    });
  });
});
