/**
 * The benchmark's verdicts: one line per budget with what was measured and its margin. A speed
 * budget is judged by its ratio to the health route measured in the same run (decision 058):
 * "p95 42.1 ms = 14.5 × health's 2.9 ms / 34.5 × = 0.42" (at most 1 to pass), "1,830 req/s =
 * 9.4 % of health's 19,400 / 5.15 % = 1.83×" (at least 1 to pass); the absolute figure it was
 * first set as follows, with its own margin, and decides nothing.
 */
import type { Budget } from './budgets';
import type { LoadResult } from './load';

/** One budget's outcome. */
export interface Verdict {
  budget: string;
  measured: string;
  pass: boolean;
}

/** The health route as measured in this run: the machine's baseline the ratios are taken to. */
export interface HealthBaseline {
  requestsPerSecond: number;
  p95Ms: number;
  connections: number;
}

/** `n` with `digits` decimals and thousands separators (en-US). */
export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** `n` with thousands separators and no forced decimals (en-US). */
export const grouped = (n: number) => n.toLocaleString('en-US');
const connectionsOf = (n: number) => `${n} connection${n === 1 ? '' : 's'}`;
const errorsOf = (r: LoadResult) => `${grouped(r.errors)} error${r.errors === 1 ? '' : 's'}`;

/** `measured / budget` for a ceiling (latency, memory): 2 decimals, at most 1 to pass. */
export const ceilingMargin = (measured: number, budget: number) => fmt(measured / budget, 2);
/** `measured / budget` for a floor (throughput, counts): 2 decimals and "×", at least 1 to pass. */
export const floorMargin = (measured: number, budget: number) => `${fmt(measured / budget, 2)}×`;

/** The budget's line: its ratio, the health figure it is taken to, and the absolute figure beside it. */
function ratioBudgetLine(label: string, budget: Budget, connections: number): string {
  const at = connectionsOf(connections);
  if (budget.kind === 'p95') return `${label} p95 <= ${fmt(budget.ratio!)} × health's p95 (${grouped(budget.absolute)} ms as first set) at ${at}`;
  return `${label} >= ${fmt(budget.ratio!, 2)} % of health's requests/s (${grouped(budget.absolute)} requests/s as first set) with 0 errors at ${at}`;
}

/**
 * A speed budget (`p95` or `rps`) judged by its ratio to `health`, met only without errors;
 * `note` is added to the measured figure (e.g. what the load moved). Fails without a result or
 * without a health baseline.
 */
export function ratioVerdict(label: string, budget: Budget, result: LoadResult | undefined, health: HealthBaseline | undefined, note = ''): Verdict {
  const line = ratioBudgetLine(label, budget, result?.connections ?? budget.connections);
  if (!result) return { budget: line, measured: 'not measured', pass: false };
  if (result.responses === 0) return { budget: line, measured: `no response in the measured run (${result.errors} errors)`, pass: false };
  if (!health || health.requestsPerSecond <= 0 || health.p95Ms <= 0) return { budget: line, measured: 'no health baseline in this run', pass: false };
  if (budget.kind === 'p95') {
    const multiple = result.p95 / health.p95Ms;
    const absolute = `absolute ${fmt(result.p95)} ms / ${grouped(budget.absolute)} ms = ${ceilingMargin(result.p95, budget.absolute)}`;
    return {
      budget: line,
      measured:
        `p95 ${fmt(result.p95)} ms = ${fmt(multiple, 2)} × health's ${fmt(health.p95Ms, 2)} ms / ${fmt(budget.ratio!)} × = ${ceilingMargin(multiple, budget.ratio!)}` +
        ` (${absolute}), ${errorsOf(result)}${note}`,
      pass: multiple <= budget.ratio! && result.errors === 0,
    };
  }
  const rps = result.requestsPerSecond;
  const share = (100 * rps) / health.requestsPerSecond;
  const absolute = `absolute ${fmt(rps, rps < 100 ? 1 : 0)} req/s / ${grouped(budget.absolute)} = ${floorMargin(rps, budget.absolute)}`;
  return {
    budget: line,
    measured:
      `${fmt(rps, rps < 100 ? 1 : 0)} req/s = ${fmt(share, 2)} % of health's ${fmt(health.requestsPerSecond, 0)} / ${fmt(budget.ratio!, 2)} % = ${floorMargin(share, budget.ratio!)}` +
      ` (${absolute}), ${errorsOf(result)}${note}`,
    pass: share >= budget.ratio! && result.errors === 0,
  };
}

/**
 * The outbox's queue of `changes` requests sent one after another (one connection, each waiting
 * for the answer before the next, as the phone's outbox sends them): its rate judged as a `rps`
 * budget by its share of health's requests/s, and every change answered.
 */
export function queueVerdict(label: string, budget: Budget, result: LoadResult | undefined, changes: number, health: HealthBaseline | undefined): Verdict {
  const verdict = ratioVerdict(`${label}: ${grouped(changes)} sent in order`, budget, result, health);
  if (!result || result.responses === 0) return verdict;
  const seconds = result.responses / result.requestsPerSecond;
  return {
    ...verdict,
    measured: `${verdict.measured}; ${fmt(seconds)} s for ${grouped(result.responses)} answers (p95 ${fmt(result.p95)} ms each)`,
    pass: verdict.pass && result.responses >= changes,
  };
}

/** A ceiling in MB (resident memory), judged absolutely; `measuredMB` undefined when it could not be read. */
export function memoryVerdict(label: string, measuredMB: number | undefined, budgetMB: number): Verdict {
  const budget = `${label} <= ${grouped(budgetMB)} MB`;
  if (measuredMB === undefined || Number.isNaN(measuredMB)) return { budget, measured: 'unreadable', pass: false };
  return { budget, measured: `${fmt(measuredMB)} MB / ${grouped(budgetMB)} MB = ${ceilingMargin(measuredMB, budgetMB)}`, pass: measuredMB <= budgetMB };
}

/** A count that must be exactly 0 (ledger mismatches): no ratio to print, the count is the margin. */
export function zeroVerdict(label: string, measured: number | undefined, unit: string): Verdict {
  if (measured === undefined) return { budget: label, measured: 'not checked', pass: false };
  return { budget: label, measured: `${grouped(measured)} ${unit} / 0 allowed`, pass: measured === 0 };
}

/** The verdict lines as printed: PASS or FAIL, the budget, what was measured with its margin. */
export const verdictLines = (verdicts: Verdict[]) => verdicts.map((v) => `${v.pass ? 'PASS' : 'FAIL'}  ${v.budget}: ${v.measured}`);
