/**
 * The budgets of `npm run bench` (docs/performance.md "Budgets", decision 058). Each speed budget
 * is judged as a ratio to the health route measured in the same run, on PostgreSQL at 20
 * connections before the other loads: a throughput as a share of health's requests/s, a latency
 * as a multiple of health's p95. The absolute figure it was first set as is kept beside it and
 * printed, not judged. Memory, the ledger invariant and the number of transfers before the second
 * dashboard load do not depend on the machine's speed: they stay absolute.
 *
 * Each ratio was picked from the absolute budget and the health figure the docs record for the
 * machine the budgets were set on (HEALTH_REFERENCE), rounded the way that loosens it, so that on
 * that machine no budget is stricter than its absolute figure.
 */

/** What a budget bounds. */
export type BudgetKind =
  /** a p95 latency in ms, at most, without errors; its ratio a multiple of health's p95 */
  | 'p95'
  /** a throughput in requests/s, at least, without errors; its ratio a share (%) of health's requests/s */
  | 'rps'
  /** resident memory in MB, at most (absolute) */
  | 'mb'
  /** a count that must reach the figure (absolute) */
  | 'count'
  /** a count that must be 0 (absolute) */
  | 'zero';

/** One budget of the benchmark. */
export interface Budget {
  /** The load as docs/performance.md's table names it. */
  load: string;
  kind: BudgetKind;
  /** Connections of the load (0 when it is no load: memory, the ledger check). */
  connections: number;
  /** The budget as first set: ms, requests/s, MB or a count. */
  absolute: number;
  /**
   * The budget judged: a multiple of health's p95 (`p95`) or a share in % of health's
   * requests/s (`rps`); undefined for the absolute kinds.
   */
  ratio?: number;
}

/**
 * The health route on the machine the budgets were set on, as docs/performance-history.md records
 * it: the 2-vCPU machine of docs/performance.md "Machine".
 */
export const HEALTH_REFERENCE = {
  /**
   * Requests/s: the top of the 13,900–19,400 the docs recorded for that machine with nothing else
   * running when the stock commands' budgets were set (2026-11-27, commits 5a085d3 and 6c65f20).
   */
  requestsPerSecond: 19_400,
  /**
   * p95 in ms at 20 connections: the lowest the docs record for the benchmark as it runs now (the
   * server as shipped, in a child process), "Server as shipped, after this round" (2.9–3.1 ms at
   * 11,006–11,965 requests/s, every budget passed). No later run recorded health's p95.
   */
  p95Ms: 2.9,
  connections: 20,
} as const;

/** Stock changes in the phone's outbox that the queue load sends (docs/product.md "Offline use"). */
export const OFFLINE_QUEUE_CHANGES = 200;
/** Seconds within which the outbox's changes must all be answered, as first set. */
export const OFFLINE_QUEUE_SECONDS = 10;

/**
 * Every budget, by the key docs/performance.md's table names it with. PostgreSQL loads run on the
 * large tenant; the PGlite ones on the demo data.
 */
export const BUDGETS = {
  dashboard: { load: 'GET /api/dashboard', kind: 'p95', connections: 20, absolute: 50, ratio: 17.3 },
  transfer: { load: 'plus taps, POST …/transfer { quantity: 1–3 }', kind: 'rps', connections: 20, absolute: 1000, ratio: 5.15 },
  transfersBeforeDashboardAgain: { load: 'transfers answered 200 before the second dashboard load', kind: 'count', connections: 20, absolute: 15_000 },
  dashboardAgain: { load: 'GET /api/dashboard after those transfers', kind: 'p95', connections: 20, absolute: 50, ratio: 17.3 },
  costs: { load: 'cost analysis, GET /api/reports/costs?period=month', kind: 'p95', connections: 20, absolute: 200, ratio: 69 },
  reorder: { load: 'reorder report, POST /api/reports/assistant (90 days, 50 records)', kind: 'p95', connections: 20, absolute: 200, ratio: 69 },
  forecast: { load: 'GET /api/forecast?horizon=7', kind: 'p95', connections: 20, absolute: 200, ratio: 69 },
  pickList: { load: "a garage's pick list for tomorrow, GET /api/garages/:id/pick-list", kind: 'p95', connections: 20, absolute: 200, ratio: 69 },
  consume: { load: 'minus taps, POST …/consume { quantity: 1–3 }', kind: 'rps', connections: 20, absolute: 1000, ratio: 5.15 },
  count: { load: 'a count of 31 rows, POST /api/units/:id/count', kind: 'p95', connections: 20, absolute: 100, ratio: 34.5 },
  restockToMinimum: { load: 'Restock to minimum, POST /api/units/:id/restock-to-minimum', kind: 'p95', connections: 20, absolute: 100, ratio: 34.5 },
  delivery: { load: 'a pick list delivered, 20 lines, POST /api/units/:id/pick-list/deliver', kind: 'p95', connections: 20, absolute: 200, ratio: 69 },
  /** 200 changes in 10 s: 20 a second, sent one after another. */
  offlineQueue: { load: 'outbox of 200 taps sent in order', kind: 'rps', connections: 1, absolute: OFFLINE_QUEUE_CHANGES / OFFLINE_QUEUE_SECONDS, ratio: 0.1 },
  ledger: { load: 'stock rows differing from their ledger after the loads', kind: 'zero', connections: 0, absolute: 0 },
  idleMemory: { load: 'server resident memory on PostgreSQL, idle', kind: 'mb', connections: 0, absolute: 150 },
  pgliteDashboard: { load: 'PGlite, demo data: GET /api/dashboard', kind: 'p95', connections: 5, absolute: 50, ratio: 17.3 },
  pgliteHealth: { load: 'PGlite: GET /api/health during that load', kind: 'p95', connections: 1, absolute: 20, ratio: 6.9 },
} as const satisfies Record<string, Budget>;

export type BudgetKey = keyof typeof BUDGETS;

/**
 * The absolute figure a ratio budget stands for on a machine whose health route measures
 * `health`: ms for a p95 budget, requests/s for a throughput budget.
 */
export function absoluteAt(budget: Budget, health: { requestsPerSecond: number; p95Ms: number }): number | undefined {
  if (budget.ratio === undefined) return undefined;
  if (budget.kind === 'p95') return budget.ratio * health.p95Ms;
  if (budget.kind === 'rps') return (budget.ratio / 100) * health.requestsPerSecond;
  return undefined;
}
