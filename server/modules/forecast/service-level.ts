/**
 * The spread of a stay's use and the bring at a service level (docs/forecast.md "Spread and
 * service level"). model.ts gives each stay its expected use μ; here a stay's use of an item is a
 * count with that mean and variance φ·μ, φ the item's dispersion. Above 1 it is a negative
 * binomial of the "NB1" kind (variance proportional to the mean), at 1 Poisson; both keep their
 * kind when summed, so the use of several stays with means μ₁…μₖ has the same law with mean Σμ
 * and exact chances. Below 1 (use steadier than Poisson: the same two rolls of toilet paper every
 * stay) the sum is taken as normal with variance φΣμ.
 *
 * φ is learned by the method of moments over blocks of days ({@link learnDispersion}): a block's
 * recorded use against its stays' expected use. A block of a week absorbs a cleaner who records a
 * stay a day late or a week's use at once, which a day-by-day comparison would read as spread.
 *
 * The operator's service level L is "the chance that an arriving stay finds every item it needs".
 * The items' chances are multiplied, as if items ran short independently, and the pieces go where
 * they raise that product most ({@link bringsAtLevel}). Items run short together more often than
 * independence says (a large party uses more of everything), so the stay's real chance is at least
 * the product: the rule errs toward bringing.
 *
 * Sources: the service level of the first kind ("cycle service level": the chance of no stock-out
 * in a replenishment cycle) and its safety stock — Silver, Pyke & Thomas, "Inventory and
 * Production Management in Supply Chains" (4th ed., 2017), ch. 6; marginal allocation over the
 * items of a system — Sherbrooke, "Optimal Inventory Modeling of Systems" (2nd ed., 2004), ch. 2;
 * the negative binomial as demand of slow and lumpy items — Syntetos & Boylan, "Intermittent
 * Demand Forecasting" (2021).
 */
import nbCdf from '@stdlib/stats-base-dists-negative-binomial-cdf';
import nbQuantile from '@stdlib/stats-base-dists-negative-binomial-quantile';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import poissonCdf from '@stdlib/stats-base-dists-poisson-cdf';
import poissonQuantile from '@stdlib/stats-base-dists-poisson-quantile';
import { expectedUse, type ModelStay, type Rate } from './model';

/** Largest dispersion kept: beyond it a history says more about its recording than about its stays. */
export const MAX_DISPERSION = 50;

/** Smallest dispersion kept: an item used exactly as expected still varies by the rounding to whole pieces. */
export const MIN_DISPERSION = 0.05;

/**
 * Days of a block the dispersion is learned over: a week, the pick lists' horizon, which absorbs a
 * cleaner who records a stay a day late or a week's use at once.
 */
export const DISPERSION_BLOCK_DAYS = 7;

/** One block of days of a property and item: the use recorded in it and its stays' expected use, pieces. */
export interface BlockUse {
  observed: number;
  expected: number;
}

/**
 * An item's dispersion φ from its blocks: Σ (observed − expected)² / Σ expected over blocks with
 * expected use, which estimates φ when E[(X − μ)²] = φμ; between {@link MIN_DISPERSION} and
 * {@link MAX_DISPERSION}; 1 (Poisson) without any block to learn from.
 */
export function learnDispersion(blocks: Iterable<BlockUse>): number {
  let squares = 0;
  let expected = 0;
  for (const b of blocks) {
    if (!(b.expected > 0)) continue;
    squares += (b.observed - b.expected) ** 2;
    expected += b.expected;
  }
  return dispersionOf(squares, expected);
}

/**
 * The dispersion of the sums {@link learnDispersion} takes over the blocks with expected use:
 * `squares` = Σ (observed − expected)², `expected` = Σ expected (pieces). The rates job sums them
 * in SQL (rates.ts). 1 when `expected` is 0.
 */
export function dispersionOf(squares: number, expected: number): number {
  if (!(expected > 0)) return 1;
  return Math.min(MAX_DISPERSION, Math.max(MIN_DISPERSION, squares / expected));
}

/**
 * P(X ≤ n): the chance that stays whose expected uses sum to `mean` (pieces) use at most `n`
 * pieces at dispersion `dispersion` (module comment); 0 for n < 0, 1 when `mean` is 0.
 */
export function chanceAtMost(n: number, mean: number, dispersion: number): number {
  if (n < 0) return 0;
  if (!(mean > 0)) return 1;
  const phi = Math.min(MAX_DISPERSION, Math.max(MIN_DISPERSION, dispersion));
  // Less spread than Poisson: the normal of that variance, n counting up to n + ½.
  if (phi < 1 - 1e-9) return normalCdf(n + 0.5, mean, Math.sqrt(phi * mean));
  if (phi < 1 + 1e-9) return poissonCdf(n, mean);
  // NB as failures before r successes with success chance p: mean r(1 − p)/p = μ, variance μφ.
  return nbCdf(n, mean / (phi - 1), 1 / phi);
}

/**
 * The least n with {@link chanceAtMost}(n, mean, dispersion) ≥ `level` (0 < level < 1): the
 * level's quantile of the same law, from stdlib's quantile functions, then checked against
 * chanceAtMost piece by piece so that the two agree exactly.
 */
export function leastAtLevel(level: number, mean: number, dispersion: number): number {
  if (!(mean > 0)) return 0;
  const phi = Math.min(MAX_DISPERSION, Math.max(MIN_DISPERSION, dispersion));
  let n: number;
  if (phi < 1 - 1e-9) n = Math.ceil(normalQuantile(level, mean, Math.sqrt(phi * mean)) - 0.5);
  else if (phi < 1 + 1e-9) n = poissonQuantile(level, mean);
  else n = nbQuantile(level, mean / (phi - 1), 1 / phi);
  n = Number.isFinite(n) ? Math.max(0, n) : 0;
  while (n > 0 && chanceAtMost(n - 1, mean, dispersion) >= level) n--;
  while (chanceAtMost(n, mean, dispersion) < level) n++;
  return n;
}

/**
 * One item of a property as a pick list sees it: its stock, minimum, rate in force, dispersion,
 * and its own service level (0–1) when it has one.
 */
export interface StockedItem {
  quantity: number;
  minimum: number;
  rate: Rate;
  dispersion: number;
  level?: number;
}

/** An item's chance as a function of its stock x, and the least x at which it reaches a level. */
interface ItemChance {
  chance: (x: number) => number;
  leastAt: (level: number) => number;
}

/**
 * The chance of each of `items` as a function of its stock x (pieces), for the stays `stays` of a
 * property on `today` ({@link bringsAtLevel}): min(P(T ≤ x), P(B ≤ x − minimum)), T the use of
 * every stay up to and including the last arrival, B that of the stays before it. Null without an
 * arrival (nothing to serve).
 */
function itemChances(items: readonly StockedItem[], stays: readonly ModelStay[], today: string): ItemChance[] | null {
  const arrivals = stays.filter((s) => s.arrival >= today);
  if (arrivals.length === 0) return null;
  // The last arrival in model.ts's order (arrival, then id): every other stay comes before it.
  const last = arrivals.reduce((a, b) => (b.arrival > a.arrival || (b.arrival === a.arrival && b.id > a.id) ? b : a));
  return items.map((item) => {
    const total = stays.reduce((sum, s) => sum + expectedUse(item.rate, s), 0);
    const before = total - expectedUse(item.rate, last);
    return {
      chance: (x: number) => Math.min(chanceAtMost(x, total, item.dispersion), chanceAtMost(x - item.minimum, before, item.dispersion)),
      leastAt: (level: number) => Math.max(leastAtLevel(level, total, item.dispersion), leastAtLevel(level, before, item.dispersion) + item.minimum),
    };
  });
}

/**
 * The chance (0–1) that no arrival of `stays` finds one of `items` short once `brings[i]` pieces
 * of each are brought: the product of the items' chances ({@link bringsAtLevel}); 1 without an arrival.
 */
export function stayChance(items: readonly StockedItem[], stays: readonly ModelStay[], today: string, brings: readonly number[]): number {
  const chances = itemChances(items, stays, today);
  if (!chances) return 1;
  return chances.reduce((product, c, i) => product * c.chance(items[i]!.quantity + brings[i]!), 1);
}

/**
 * Pieces of each of `items` to bring to a property now so that, with chance `stayLevel`, its
 * next arrivals find every item they need (module comment) — fewest pieces first.
 *
 * An item is enough at stock x when x covers the use of every stay up to and including the last
 * arrival of the horizon, T, and leaves the item's minimum before it: x − B ≥ minimum, B the use
 * of the stays before the last arrival (those under way first). Its chance is taken as
 * min(P(T ≤ x), P(B ≤ x − minimum)), and the stay's as the product over the items, as if they ran
 * short independently. Pieces are added one at a time to the item whose chance gains most (in
 * log) until the product reaches `stayLevel`: the marginal allocation of multi-item inventory
 * theory, which spends the allowed shortfall where a piece buys most of it. Each item starts
 * from its stock, raised to its minimum and to the least stock at which its own chance reaches
 * the level: no product of chances reaches a level that one of its factors is below, so the
 * allocation would pass there anyway, and starting there spares it most of its steps (a property
 * of 100 items took 21 ms from the stock alone, most of it in 3,000 one-piece steps). An item with
 * a level of its own above the stay's starts at that level instead: its own chance is a floor
 * the operator asked for (the item that must never be missing), and the stay's level still holds,
 * since pieces only raise the product.
 * The per-item levels combine into the stay's as that floor and the product: the stay is served
 * with chance at least `stayLevel`, each such item with chance at least its own.
 * @param stays the property's stays that have not departed before `today`; those arrived before
 *   `today` are under way (they use stock, and are not checked).
 * @returns pieces per item, in `items`' order; all 0 without an arrival.
 */
export function bringsAtLevel(items: readonly StockedItem[], stays: readonly ModelStay[], today: string, stayLevel: number): number[] {
  const chances = itemChances(items, stays, today);
  if (!chances) return items.map(() => 0);
  const stock = items.map((item, i) => Math.max(item.quantity, item.minimum, chances[i]!.leastAt(Math.max(stayLevel, item.level ?? 0))));
  const chance = stock.map((x, i) => chances[i]!.chance(x));
  const next = stock.map((x, i) => chances[i]!.chance(x + 1));
  const gain = next.map((c, i) => Math.log(c) - Math.log(chance[i]!));
  let logLevel = chance.reduce((sum, c) => sum + Math.log(c), 0);
  const target = Math.log(stayLevel);
  while (logLevel < target) {
    let best = 0;
    for (let i = 1; i < gain.length; i++) if (gain[i]! > gain[best]!) best = i;
    if (!(gain[best]! > 0)) break; // no piece adds anything: the chances are as high as doubles tell
    stock[best]! += 1;
    logLevel += gain[best]!;
    chance[best] = next[best]!;
    next[best] = chances[best]!.chance(stock[best]! + 1);
    gain[best] = Math.log(next[best]!) - Math.log(chance[best]!);
  }
  return stock.map((x, i) => x - items[i]!.quantity);
}
