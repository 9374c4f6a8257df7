/**
 * The forecast backtest's arithmetic (docs/forecast.md "Backtest"), on plain numbers: replays a
 * company's history day by day, forecasts each property's use of each item over the next days
 * with what was known that day (server/modules/forecast/model.ts), compares with what the ledger
 * recorded, and replays restocking policies from the same starting stock. Nothing here reads the
 * database or the clock.
 *
 * Days are indices into the history's calendar days (0 = its first day, in the company's time
 * zone); a day's usage is what the ledger counts as usage that day (docs/product.md "Stock
 * movements and statuses"), and a stay's use is recorded on its departure day, at checkout.
 * A generated history (independent-company.ts) also knows what each stay really used
 * (`trueUse`), recorded late or in a weekly count: the model still learns from the recorded
 * usage only, and the replay judges the forecast and the policies against the true use.
 */
import { expectedUse, LEARNING_DAYS, learnRates, projectItem, type LearnedRates, type ModelStay, type PropertyHistory } from '../../server/modules/forecast/model';

/** An item as the backtest needs it. */
export interface BacktestItem {
  id: string;
  name: string;
  category: string;
  /** items.minimum_threshold, pieces. */
  minimum: number;
  /** items.usage_per_stay_default, pieces; null: none. */
  defaultPerStay: number | null;
}

/** A stay with its property and its days as indices (arrival < departure; either may lie outside the history). */
export interface BacktestStay extends ModelStay {
  unitId: string;
  arrivalDay: number;
  departureDay: number;
  /**
   * Pieces the stay really used, per item index (`BacktestHistory.items` order), leaving the
   * property by its departure day, when the history knows it apart from what was recorded;
   * absent: the property's recorded usage on the departure day stands for it. A history gives
   * it on every stay or on none ({@link consumedUsage}).
   */
  trueUse?: readonly number[];
}

/** A company's history, as {@link loadHistory} (history.ts) reads it. */
export interface BacktestHistory {
  /** Calendar days ('YYYY-MM-DD') of the history, all complete: the last is yesterday. */
  days: string[];
  unitIds: string[];
  items: BacktestItem[];
  /** usage[u][i][d]: pieces used at unitIds[u] of items[i] on days[d]. */
  usage: number[][][];
  /** Every stay of the company's properties, any order. */
  stays: BacktestStay[];
}

/** Options of a replay: the days it covers and the windows it looks at. */
export interface ReplayOptions {
  /** First forecast day (index): the baseline needs this many days before it. */
  firstDay: number;
  /** Days each forecast covers. */
  horizon: number;
  /** Days the moving-average baseline averages over. */
  averageDays: number;
}

export const DEFAULT_REPLAY: ReplayOptions = { firstDay: 28, horizon: 7, averageDays: 28 };

/** Absolute errors and actual totals, summed over forecasts. */
export interface ErrorSums {
  actual: number;
  forecast: number;
  /** Σ |forecast − actual| of the model, the moving average and the minimum rule. */
  model: number;
  average: number;
  minimum: number;
  /** Property-item-windows summed. */
  windows: number;
}

/** WAPE: Σ|forecast − actual| / Σ actual; null when nothing was used. */
export function wape(absoluteError: number, actual: number): number | null {
  return actual > 0 ? absoluteError / actual : null;
}

const emptySums = (): ErrorSums => ({ actual: 0, forecast: 0, model: 0, average: 0, minimum: 0, windows: 0 });

/** Sum of `series` over the days [from, to), clipped to the series. */
function sumDays(series: readonly number[], from: number, to: number): number {
  let sum = 0;
  for (let d = Math.max(0, from); d < Math.min(series.length, to); d++) sum += series[d]!;
  return sum;
}

/**
 * What really left each property each day, [u][i][d] in pieces like `history.usage`: when the
 * stays carry their `trueUse`, each stay's true use on its departure day (days outside the
 * history dropped); otherwise the recorded usage, the demo's rule that usage is recorded at
 * checkout.
 * @throws Error when some stays carry a true use and others do not: the stays without one would
 *   use nothing.
 */
export function consumedUsage(history: BacktestHistory): number[][][] {
  const known = history.stays.filter((s) => s.trueUse !== undefined).length;
  if (known === 0) return history.usage;
  if (known < history.stays.length) throw new Error(`${known} of ${history.stays.length} stays carry a true use: all or none must.`);
  const consumed = history.unitIds.map(() => history.items.map(() => new Array<number>(history.days.length).fill(0)));
  const unitIndex = new Map(history.unitIds.map((id, u) => [id, u]));
  for (const stay of history.stays) {
    if (stay.departureDay < 0 || stay.departureDay >= history.days.length) continue;
    const row = consumed[unitIndex.get(stay.unitId)!]!;
    stay.trueUse!.forEach((n, i) => {
      row[i]![stay.departureDay]! += n;
    });
  }
  return consumed;
}

/**
 * The usage rates known at the start of `day`: the ledger's usage and the stays departed in the
 * {@link LEARNING_DAYS} before it, learned by the model's own {@link learnRates}.
 */
export function ratesKnownOn(history: BacktestHistory, day: number): LearnedRates {
  const from = day - LEARNING_DAYS;
  const properties: PropertyHistory[] = history.unitIds.map((unitId, u) => {
    const departed = history.stays.filter((s) => s.unitId === unitId && s.departureDay >= from && s.departureDay < day);
    const used = new Map<string, number>();
    history.items.forEach((item, i) => {
      const total = sumDays(history.usage[u]![i]!, from, day);
      if (total > 0) used.set(item.id, total);
    });
    return {
      unitId,
      stays: departed.length,
      guestNights: departed.reduce((sum, s) => sum + s.guests * (s.departureDay - s.arrivalDay), 0),
      used,
    };
  });
  return learnRates(properties, history.items);
}

/** The rates known on a day of a history ({@link ratesKnownOn}), learned at most once a day. */
export type RatesByDay = (day: number) => LearnedRates;

/**
 * {@link ratesKnownOn} for `history`, remembered per day: the policies of one replay share it, so
 * the rates of a day are learned once however many policies deliver that day.
 */
export function ratesByDay(history: BacktestHistory): RatesByDay {
  return onceADay((day) => ratesKnownOn(history, day));
}

/** `learn`, remembered per day: each day's answer is computed once. */
export function onceADay<T>(learn: (day: number) => T): (day: number) => T {
  const known = new Map<number, T>();
  return (day) => {
    if (!known.has(day)) known.set(day, learn(day));
    return known.get(day)!;
  };
}

/** Forecast errors by item category, and over all items. */
export interface ForecastErrors {
  byCategory: Map<string, ErrorSums>;
  overall: ErrorSums;
  /** Forecast days replayed. */
  origins: number;
}

/**
 * Replays the forecast: for every day d from `firstDay` while [d, d + horizon) lies in the
 * history, each property's and item's forecast is the expected use of the stays departing in
 * that window at the rates known on d (the guests the reservation says); the moving average is
 * the property's use of the item over the `averageDays` before d, per day, times the horizon; the
 * minimum rule plans the item's minimum threshold per property and window. Each is compared with
 * the use in the window ({@link consumedUsage}: what the ledger recorded, or the stays' true use
 * when the history knows it); the model and the average only ever see the recorded usage.
 */
export function replayForecast(history: BacktestHistory, options: ReplayOptions = DEFAULT_REPLAY): ForecastErrors {
  const consumed = consumedUsage(history);
  const byCategory = new Map<string, ErrorSums>();
  const overall = emptySums();
  let origins = 0;
  for (let d = options.firstDay; d + options.horizon <= history.days.length; d++) {
    origins++;
    const rates = ratesKnownOn(history, d);
    history.unitIds.forEach((unitId, u) => {
      const departing = history.stays.filter((s) => s.unitId === unitId && s.departureDay >= d && s.departureDay < d + options.horizon);
      history.items.forEach((item, i) => {
        const series = history.usage[u]![i]!;
        const rate = rates.byUnit.get(unitId)!.get(item.id)!;
        const forecast = departing.reduce((sum, s) => sum + expectedUse(rate, s), 0);
        const average = (sumDays(series, d - options.averageDays, d) / options.averageDays) * options.horizon;
        const actual = sumDays(consumed[u]![i]!, d, d + options.horizon);
        const category = byCategory.get(item.category) ?? emptySums();
        byCategory.set(item.category, category);
        for (const sums of [category, overall]) {
          sums.actual += actual;
          sums.forecast += forecast;
          sums.model += Math.abs(forecast - actual);
          sums.average += Math.abs(average - actual);
          sums.minimum += Math.abs(item.minimum - actual);
          sums.windows++;
        }
      });
    });
  }
  return { byCategory, overall, origins };
}

/** What a restocking policy did over the replay. */
export interface PolicyOutcome {
  /** Arrivals checked: stays arriving in the replay whose departure (and so their use) is in the history. */
  stays: number;
  /** Of those, stays whose property held less of some item at arrival than the stay used. */
  shortStays: number;
  /** Pieces brought to properties. */
  piecesMoved: number;
}

/**
 * Decides what to bring to a property on an arrival day: pieces per item index, given its stock
 * per item index (after the day's checkouts), the property's index and the day.
 */
export type Policy = (stock: readonly number[], unit: number, day: number) => number[];

/**
 * The team follows the pick lists: each arriving property is brought, per item, the model's
 * `bring` over the stays not yet departed that arrive in the next `horizon` days, at the rates
 * known that day (`ratesOn`, by default learned for this policy alone).
 */
export function pickListPolicy(history: BacktestHistory, horizon: number, ratesOn: RatesByDay = ratesByDay(history)): Policy {
  return (stock, unit, day) => {
    const rates = ratesOn(day);
    const unitId = history.unitIds[unit]!;
    const upcoming = history.stays.filter((s) => s.unitId === unitId && s.departureDay > day && s.arrivalDay < day + horizon);
    return history.items.map(
      (item, i) => projectItem(stock[i]!, item.minimum, rates.byUnit.get(unitId)!.get(item.id)!, upcoming, history.days[day]!).bring,
    );
  };
}

/**
 * The threshold rule ("Restock to minimum", docs/product.md "Stock movements and statuses"),
 * scaled: every item below `factor` × its minimum, rounded up to whole pieces, is filled up to
 * that level. Factor 1 is the product's rule; a larger factor is the par level a team keeps above
 * the minimum by its own habit (the product stores none).
 */
export function minimumPolicy(history: BacktestHistory, factor = 1): Policy {
  const levels = history.items.map((item) => Math.ceil(factor * item.minimum));
  return (stock) => levels.map((level, i) => Math.max(0, level - stock[i]!));
}

/**
 * Replays a policy from `startStock` (stock[u][i] at the start of `firstDay`) to the end of the
 * history. Each day, first what left every property that day ({@link consumedUsage}) is taken
 * off its stock (never below 0), then each property with an arrival that day gets what the
 * policy brings (the garage is assumed to have it), then each arriving stay whose departure lies
 * in the history is checked: it starts short when some item's stock is below what that stay used
 * (its `trueUse`, else the property's recorded usage on its departure day).
 */
export function replayPolicy(history: BacktestHistory, startStock: readonly (readonly number[])[], policy: Policy, firstDay: number): PolicyOutcome {
  const consumed = consumedUsage(history);
  const stock = startStock.map((row) => [...row]);
  const outcome: PolicyOutcome = { stays: 0, shortStays: 0, piecesMoved: 0 };
  const last = history.days.length - 1;
  for (let day = firstDay; day <= last; day++) {
    history.unitIds.forEach((unitId, u) => {
      const row = stock[u]!;
      history.items.forEach((_, i) => {
        row[i] = Math.max(0, row[i]! - consumed[u]![i]![day]!);
      });
      const arriving = history.stays.filter((s) => s.unitId === unitId && s.arrivalDay === day);
      if (arriving.length === 0) return;
      const brought = policy(row, u, day);
      brought.forEach((n, i) => {
        row[i] = row[i]! + n;
        outcome.piecesMoved += n;
      });
      for (const stay of arriving) {
        if (stay.departureDay > last) continue;
        outcome.stays++;
        if (history.items.some((_, i) => row[i]! < (stay.trueUse?.[i] ?? history.usage[u]![i]![stay.departureDay]!))) outcome.shortStays++;
      }
    });
  }
  return outcome;
}
