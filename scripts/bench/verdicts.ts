/**
 * The benchmark's verdicts: one line per budget with what was measured and its margin, the
 * measured figure divided by the budget ("p95 42.1 ms / 100 ms = 0.42", at most 1 to pass;
 * "1,830 req/s / 1,000 = 1.83×", at least 1 to pass).
 */
import type { LoadResult } from './load';

/** One budget's outcome. */
export interface Verdict {
  budget: string;
  measured: string;
  pass: boolean;
}

export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const grouped = (n: number) => n.toLocaleString('en-US');
const connectionsOf = (r: LoadResult) => `${r.connections} connection${r.connections === 1 ? '' : 's'}`;
const errorsOf = (r: LoadResult) => `${grouped(r.errors)} error${r.errors === 1 ? '' : 's'}`;

/** `measured / budget` for a ceiling (latency, memory): 2 decimals, at most 1 to pass. */
export const ceilingMargin = (measured: number, budget: number) => fmt(measured / budget, 2);
/** `measured / budget` for a floor (throughput, counts): 2 decimals and "×", at least 1 to pass. */
export const floorMargin = (measured: number, budget: number) => `${fmt(measured / budget, 2)}×`;

/**
 * A p95 budget in ms, met only without errors; `note` is added to the measured figure (e.g.
 * what the load moved).
 */
export function p95Verdict(label: string, result: LoadResult | undefined, budgetMs: number, note = ''): Verdict {
  const budget = `${label} p95 <= ${grouped(budgetMs)} ms${result ? ` at ${connectionsOf(result)}` : ''}`;
  if (!result) return { budget, measured: 'not measured', pass: false };
  if (result.responses === 0) return { budget, measured: `no response in the measured run (${result.errors} errors)`, pass: false };
  return {
    budget,
    measured: `p95 ${fmt(result.p95)} ms / ${grouped(budgetMs)} ms = ${ceilingMargin(result.p95, budgetMs)}, ${errorsOf(result)}${note}`,
    pass: result.p95 <= budgetMs && result.errors === 0,
  };
}

/**
 * A throughput budget in requests/s, met only without errors; also prints the rate as a share
 * of the health route's in the same run (`healthRps`), which tells a busy machine from a slow
 * route.
 */
export function rpsVerdict(label: string, result: LoadResult | undefined, budgetRps: number, healthRps: number | undefined): Verdict {
  const budget = `${label} >= ${grouped(budgetRps)} requests/s with 0 errors${result ? ` at ${connectionsOf(result)}` : ''}`;
  if (!result) return { budget, measured: 'not measured', pass: false };
  const rps = result.requestsPerSecond;
  const share = healthRps ? ` (${fmt((100 * rps) / healthRps)} % of health's ${fmt(healthRps, 0)} req/s)` : '';
  return {
    budget,
    measured: `${fmt(rps, 0)} req/s / ${grouped(budgetRps)} = ${floorMargin(rps, budgetRps)}${share}, ${errorsOf(result)}`,
    pass: rps >= budgetRps && result.errors === 0,
  };
}

/** A ceiling in MB (resident memory); `measuredMB` undefined when it could not be read. */
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

/**
 * A queue of `changes` requests sent one after another (one connection, each waiting for the
 * answer before the next, as the phone's outbox sends them): all answered, without errors, within
 * `budgetSeconds` in all.
 */
export function queueVerdict(label: string, result: LoadResult | undefined, changes: number, budgetSeconds: number): Verdict {
  const budget = `${label}: ${grouped(changes)} sent in order in <= ${grouped(budgetSeconds)} s`;
  if (!result || result.responses === 0) return { budget, measured: 'not measured', pass: false };
  const seconds = result.responses / result.requestsPerSecond;
  return {
    budget,
    measured: `${fmt(seconds)} s / ${grouped(budgetSeconds)} s = ${ceilingMargin(seconds, budgetSeconds)} for ${grouped(result.responses)} answers (p95 ${fmt(result.p95)} ms each), ${errorsOf(result)}`,
    pass: result.responses >= changes && seconds <= budgetSeconds && result.errors === 0,
  };
}
