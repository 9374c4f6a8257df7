/**
 * The independent company's generator (independent-company.ts): the same seed gives the same
 * company, its stays are the kind the issue asks for (nights 1–10, parties often above the
 * listing), and each property's usage is recorded as its team records it: at checkout, by a
 * weekly count, or 1–3 days late, never before the use, while the stays keep their true use.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_ITEMS } from '../demo/catalogue';
import { HISTORY_DAYS, independentCompany, type IndependentCompany, type RecordingMode } from './independent-company';
import { consumedUsage } from './replay';

const company = independentCompany();
const { history, properties } = company;
const consumed = consumedUsage(history);

/** Running totals of `series`: total[d] = Σ series[0..d]. */
const cumulative = (series: readonly number[]): number[] => {
  let sum = 0;
  return series.map((n) => (sum += n));
};

/** The property indices recording by `mode`. */
const recordingBy = (mode: RecordingMode): number[] => properties.flatMap((p, u) => (p.recording === mode ? [u] : []));

/** Every (property, item) pair of the properties recording by `mode`, with the recorded and the true daily series. */
const seriesOf = (mode: RecordingMode) =>
  recordingBy(mode).flatMap((u) => history.items.map((_, i) => ({ u, i, recorded: history.usage[u]![i]!, used: consumed[u]![i]! })));

/**
 * The days, as 'property item day', where the properties recording by `mode` recorded a use
 * sooner than `earliest` or later than `latest` days after it: their recorded total by day d is
 * more than their true total by d − earliest, or less than by d − latest.
 */
const recordedOutOfTime = (mode: RecordingMode, earliest: number, latest: number): string[] =>
  seriesOf(mode).flatMap(({ u, i, recorded, used }) => {
    const r = cumulative(recorded);
    const c = cumulative(used);
    const usedBy = (d: number) => (d < 0 ? 0 : c[d]!);
    return r.flatMap((total, d) => (total > usedBy(d - earliest) || total < usedBy(d - latest) ? [`${history.unitIds[u]} ${history.items[i]!.id} ${d}`] : []));
  });

describe('the independent company', () => {
  it('is the same for the same seed and another for another seed', () => {
    const again: IndependentCompany = independentCompany();
    expect(again).toEqual(company);
    expect(independentCompany(7).history.stays).not.toEqual(history.stays);
  });

  it('has 20 properties, 20 items of kinds the demo does not stock and 120 days or more', () => {
    expect(history.unitIds).toHaveLength(20);
    expect(history.items).toHaveLength(20);
    expect(history.days.length).toBeGreaterThanOrEqual(120);
    expect(history.days).toHaveLength(HISTORY_DAYS);
    const demoCategories = new Set(DEMO_ITEMS.map((item) => item.category));
    expect(history.items.filter((item) => demoCategories.has(item.category))).toEqual([]);
    expect(history.items.every((item) => item.minimum >= 1)).toBe(true);
  });

  it('has stays of 1 to 10 nights, parties often above the listing, and the typical guests where a link gives none', () => {
    const nights = new Set(history.stays.map((s) => s.departureDay - s.arrivalDay));
    expect([...nights].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const byId = new Map(properties.map((p) => [p.id, p]));
    const above = history.stays.filter((s) => s.party > byId.get(s.unitId)!.typicalGuests).length / history.stays.length;
    expect(above).toBeGreaterThan(0.35);
    expect(above).toBeLessThan(0.55);
    for (const s of history.stays) {
      const property = byId.get(s.unitId)!;
      expect(s.guests).toBe(property.guestsGiven ? s.party : property.typicalGuests);
    }
    expect(properties.some((p) => !p.guestsGiven)).toBe(true);
  });

  it('draws use unlike the model: zero for many stays, a long tail for others', () => {
    const uses = history.stays.flatMap((s) => s.trueUse);
    expect(uses.filter((n) => n === 0).length / uses.length).toBeGreaterThan(0.3);
    const granola = history.items.findIndex((item) => item.name === 'Granola Bars');
    const perStay = history.stays.map((s) => s.trueUse[granola]!).sort((a, b) => a - b);
    const mean = perStay.reduce((a, b) => a + b, 0) / perStay.length;
    expect(perStay.at(-1)!).toBeGreaterThan(5 * mean);
  });

  it('records each stay at checkout where the team does: recorded usage is the true use, day by day', () => {
    expect(recordingBy('checkout').length).toBeGreaterThan(0);
    expect(recordedOutOfTime('checkout', 0, 0)).toEqual([]);
  });

  it('records late: 1 to 3 days after the use', () => {
    expect(recordingBy('late').length).toBeGreaterThan(0);
    expect(recordedOutOfTime('late', 1, 3)).toEqual([]);
    expect(seriesOf('late').some(({ used }) => used.some((n) => n > 0))).toBe(true);
  });

  it('records a weekly count on one weekday: the week\'s true use at once, which differs from the days it was used', () => {
    expect(recordingBy('weekly').length).toBeGreaterThan(0);
    for (const u of recordingBy('weekly')) {
      const weekday = properties[u]!.countWeekday!;
      const days = new Set(history.usage[u]!.flatMap((recorded) => recorded.flatMap((n, d) => (n > 0 ? [d % 7] : []))));
      expect([...days]).toEqual([weekday]);
    }
    expect(recordedOutOfTime('weekly', 0, 6)).toEqual([]);
    // A property's true use on the days its stays departed is not what its ledger says.
    const u = recordingBy('weekly')[0]!;
    expect(history.usage[u]).not.toEqual(consumed[u]);
    expect(consumed[u]!.flat().reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
