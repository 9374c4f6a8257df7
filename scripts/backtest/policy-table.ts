/**
 * The backtest's table of restocking policies (docs/forecast.md "Short stays"): the pick lists
 * (the mean forecast and at each service level) and the threshold rule scaled, replayed from the
 * same starting stock by replay.ts `replayPolicy`.
 */
import { minimumPolicy, pickListPolicy, ratesByDay, replayPolicy, type BacktestHistory, type Policy, type PolicyOutcome } from './replay';
import { knownByDay, serviceLevelPolicy } from './service-level-policy';

/** A row of the policy table: `key` names it in the JSON, `label` in the printed tables. */
export interface PolicyRow {
  key: string;
  label: string;
  /** The share of stays a service-level policy aims to serve (0..1); absent for the others. */
  target?: number;
  policy: Policy;
}

/** Service levels the pick lists are replayed at (docs/forecast.md "Spread and service level"). */
export const SERVICE_LEVELS = [0.8, 0.9, 0.95, 0.98] as const;

/**
 * Factors of the minimum the scaled threshold rule is replayed at (docs/forecast.md "Short
 * stays"): far enough that its curve of stays served against pieces reaches the service levels'.
 */
export const MINIMUM_FACTORS = [1, 1.5, 2, 3, 4, 6] as const;

/**
 * The policies the backtest compares, in table order: the pick lists (the mean forecast over
 * `horizon` days), the pick lists at each of {@link SERVICE_LEVELS}, then the threshold rule at
 * each of {@link MINIMUM_FACTORS}. Another policy is one more row here, and every table and the
 * JSON show it.
 *
 * A service level's pick list covers the stays until the next delivery: the replay delivers to a
 * property on each arrival day, so those under way and arriving that day. Covering the whole
 * horizon at every delivery would serve each stay at a higher level than the one asked for.
 */
export function backtestPolicies(history: BacktestHistory, horizon: number): PolicyRow[] {
  // One learning a day for every policy that reads the model.
  const ratesOn = ratesByDay(history);
  const knownOn = knownByDay(history, ratesOn);
  return [
    { key: 'pickLists', label: 'Pick lists (mean forecast)', policy: pickListPolicy(history, horizon, ratesOn) },
    ...SERVICE_LEVELS.map((level) => ({
      key: `serviceLevel${Math.round(level * 100)}`,
      label: `Pick lists at ${Math.round(level * 100)} %`,
      target: level,
      policy: serviceLevelPolicy(history, 1, level, knownOn),
    })),
    ...MINIMUM_FACTORS.map((factor) => ({
      key: `minimumX${factor}`,
      label: `Restock to minimum ×${factor}`,
      policy: minimumPolicy(history, factor),
    })),
  ];
}

/** A policy's row of the table: its key and label with what it did. */
export type PolicyResult = Omit<PolicyRow, 'policy'> & PolicyOutcome;

/** Replays every row of `rows` from the same `startStock` ({@link replayPolicy}), in their order. */
export function replayPolicies(
  history: BacktestHistory,
  startStock: readonly (readonly number[])[],
  rows: readonly PolicyRow[],
  firstDay: number,
): PolicyResult[] {
  return rows.map(({ policy, ...row }) => ({ ...row, ...replayPolicy(history, startStock, policy, firstDay) }));
}

/** A share of stays served (0..1), or null when no stay was checked. */
export const servedShare = (p: PolicyOutcome): number | null => (p.stays > 0 ? 1 - p.shortStays / p.stays : null);

/**
 * The pieces the threshold rule needs to serve `share` of the stays: read off its rows of
 * `results` (the scaled minimums), linearly between the two factors around `share`; null when no
 * factor serves that many.
 */
export function minimumPiecesAt(results: readonly PolicyResult[], share: number): number | null {
  const curve = results
    .filter((r) => r.key.startsWith('minimumX'))
    .map((r) => ({ served: servedShare(r) ?? 0, pieces: r.piecesMoved }))
    .sort((a, b) => a.served - b.served || a.pieces - b.pieces);
  const above = curve.findIndex((c) => c.served >= share);
  if (above < 0) return null;
  if (above === 0) return curve[0]!.pieces;
  const [lo, hi] = [curve[above - 1]!, curve[above]!];
  return lo.pieces + ((share - lo.served) / (hi.served - lo.served)) * (hi.pieces - lo.pieces);
}
