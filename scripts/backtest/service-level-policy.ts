/**
 * The pick lists at a service level in the backtest (docs/forecast.md "Spread and service
 * level"): each arriving property is brought, per item, what covers its next stays with the
 * chance the stay's level gives that item (server/modules/forecast/service-level.ts), at the rates
 * and dispersions known that day.
 *
 * The dispersion of an item is learned from the {@link LEARNING_DAYS} before the day, cut into
 * blocks of {@link DISPERSION_BLOCK_DAYS}: in each block, each property's recorded usage against
 * the expected use of its stays that departed in the block.
 */
import { expectedUse, LEARNING_DAYS, type LearnedRates } from '../../server/modules/forecast/model';
import { bringsAtLevel, DISPERSION_BLOCK_DAYS, learnDispersion, type BlockUse } from '../../server/modules/forecast/service-level';
import { onceADay, ratesByDay, type BacktestHistory, type Policy, type RatesByDay } from './replay';

/**
 * The dispersion of each item (by id) known at the start of `day`, at `rates` (those known that
 * day): whole blocks of {@link DISPERSION_BLOCK_DAYS} in the {@link LEARNING_DAYS} before it, or
 * as many as the history holds.
 */
export function dispersionKnownOn(history: BacktestHistory, day: number, rates: LearnedRates): Map<string, number> {
  const from = Math.max(0, day - LEARNING_DAYS);
  const blocks = Math.floor((day - from) / DISPERSION_BLOCK_DAYS);
  const start = day - blocks * DISPERSION_BLOCK_DAYS;
  const byItem = history.items.map((): BlockUse[] => []);
  history.unitIds.forEach((unitId, u) => {
    const departed = history.stays.filter((s) => s.unitId === unitId && s.departureDay >= start && s.departureDay < day);
    for (let b = 0; b < blocks; b++) {
      const [lo, hi] = [start + b * DISPERSION_BLOCK_DAYS, start + (b + 1) * DISPERSION_BLOCK_DAYS];
      const inBlock = departed.filter((s) => s.departureDay >= lo && s.departureDay < hi);
      history.items.forEach((item, i) => {
        const rate = rates.byUnit.get(unitId)!.get(item.id)!;
        let observed = 0;
        for (let d = lo; d < hi; d++) observed += history.usage[u]![i]![d]!;
        byItem[i]!.push({ observed, expected: inBlock.reduce((sum, s) => sum + expectedUse(rate, s), 0) });
      });
    }
  });
  return new Map(history.items.map((item, i) => [item.id, learnDispersion(byItem[i]!)]));
}

/** The rates and dispersions known on a day of a history, learned at most once a day. */
export type KnownByDay = (day: number) => { rates: LearnedRates; dispersion: Map<string, number> };

/**
 * The rates (`ratesOn`) and the dispersions ({@link dispersionKnownOn}) of `history` known on each
 * day, remembered per day: the service levels of one replay share them.
 */
export function knownByDay(history: BacktestHistory, ratesOn: RatesByDay = ratesByDay(history)): KnownByDay {
  return onceADay((day) => {
    const rates = ratesOn(day);
    return { rates, dispersion: dispersionKnownOn(history, day, rates) };
  });
}

/**
 * The team follows pick lists made at service level `stayLevel` (0..1: the chance an arriving
 * stay finds every item it uses) over the stays not yet departed that arrive in the next
 * `horizon` days (service-level.ts `bringsAtLevel`), at what `knownOn` says was known that day
 * (by default learned for this policy alone).
 */
export function serviceLevelPolicy(history: BacktestHistory, horizon: number, stayLevel: number, knownOn: KnownByDay = knownByDay(history)): Policy {
  return (stock, unit, day) => {
    const k = knownOn(day);
    const unitId = history.unitIds[unit]!;
    const upcoming = history.stays.filter((s) => s.unitId === unitId && s.departureDay > day && s.arrivalDay < day + horizon);
    const rateOf = k.rates.byUnit.get(unitId)!;
    const items = history.items.map((item, i) => ({ quantity: stock[i]!, minimum: item.minimum, rate: rateOf.get(item.id)!, dispersion: k.dispersion.get(item.id)! }));
    return bringsAtLevel(items, upcoming, history.days[day]!, stayLevel);
  };
}
