/**
 * docs/performance.md's budget table says what `npm run bench` judges (scripts/bench/budgets.ts):
 * the same budgets, loads' connections, ratios and absolute figures, and each ratio no stricter
 * than its absolute figure on the machine it was set on (decision 058). The verdicts judge by
 * the ratio.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { absoluteAt, BUDGETS, HEALTH_REFERENCE, type Budget } from './budgets';
import type { LoadResult } from './load';
import { queueVerdict, ratioVerdict } from './verdicts';

const DOC = new URL('../../docs/performance.md', import.meta.url);

/** One row of the doc's budget table, as written. */
interface DocRow {
  key: string;
  connections: number;
  ratio: number | undefined;
  ratioKind: 'multiple' | 'share' | 'absolute';
  absolute: number;
}

/**
 * The number after the first ≤ or ≥ of `cell`, else its first number ("≥ 1,000 req/s" → 1000,
 * "p95 ≤ 17.3 × health's p95" → 17.3, "0" → 0); NaN without one.
 */
const numberIn = (cell: string) => {
  const match = /[≤≥]\s*(\d[\d,]*(?:\.\d+)?)/.exec(cell) ?? /(\d[\d,]*(?:\.\d+)?)/.exec(cell);
  return Number(match?.[1]?.replaceAll(',', '') ?? NaN);
};

/**
 * The rows of the table under `## Budgets` whose first cell is a budget's key in backticks:
 * | `key` | load | connections | judged by | absolute | …
 */
function budgetTable(markdown: string): DocRow[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Budgets'));
  if (!section) throw new Error('docs/performance.md has no "## Budgets" section');
  return section
    .split('\n')
    .filter((line) => /^\|\s*`\w+`\s*\|/.test(line))
    .map((line) => {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      const [key, , connections, judged, absolute] = cells;
      const ratioKind = /%/.test(judged!) ? 'share' : /×/.test(judged!) ? 'multiple' : 'absolute';
      return {
        key: key!.replaceAll('`', ''),
        connections: connections === '—' ? 0 : numberIn(connections!),
        ratio: ratioKind === 'absolute' ? undefined : numberIn(judged!),
        ratioKind,
        absolute: numberIn(absolute!),
      };
    });
}

const load = (over: Partial<LoadResult>): LoadResult => ({
  name: 'load',
  connections: 20,
  requestsPerSecond: 1000,
  p50: 10,
  p95: 20,
  p99: 30,
  responses: 10_000,
  warmupResponses: 0,
  warmupStatuses: {},
  errors: 0,
  statuses: { '200': 10_000 },
  ...over,
});

describe('the budget table of docs/performance.md', () => {
  const rows = budgetTable(readFileSync(DOC, 'utf8'));

  it('lists every budget of the benchmark once, and nothing else', () => {
    expect(rows.map((r) => r.key).sort()).toEqual(Object.keys(BUDGETS).sort());
  });

  it.each(Object.entries(BUDGETS) as [string, Budget][])('states %s as the benchmark judges it', (key, budget) => {
    const row = rows.find((r) => r.key === key);
    expect(row, `no row for ${key}`).toBeDefined();
    expect({ connections: row!.connections, absolute: row!.absolute, ratio: row!.ratio, ratioKind: row!.ratioKind }).toEqual({
      connections: budget.connections,
      absolute: budget.absolute,
      ratio: budget.ratio,
      ratioKind: budget.kind === 'p95' ? 'multiple' : budget.kind === 'rps' ? 'share' : 'absolute',
    });
  });
});

describe('the ratio budgets', () => {
  const speed = (Object.entries(BUDGETS) as [string, Budget][]).filter(([, b]) => b.kind === 'p95' || b.kind === 'rps');

  it('give every speed budget a ratio, and no other', () => {
    for (const [key, b] of Object.entries(BUDGETS) as [string, Budget][]) expect(b.ratio !== undefined, key).toBe(b.kind === 'p95' || b.kind === 'rps');
  });

  it.each(speed)('%s is no stricter than its absolute figure on the reference machine', (_key, budget) => {
    const there = absoluteAt(budget, HEALTH_REFERENCE)!;
    if (budget.kind === 'p95') expect(there).toBeGreaterThanOrEqual(budget.absolute);
    else expect(there).toBeLessThanOrEqual(budget.absolute);
    // …and looser by less than the rounding of the ratio (0.1 × p95, 0.01 % of req/s).
    const slack = budget.kind === 'p95' ? 0.1 * HEALTH_REFERENCE.p95Ms : 0.0001 * HEALTH_REFERENCE.requestsPerSecond;
    expect(Math.abs(there - budget.absolute)).toBeLessThanOrEqual(slack);
  });
});

describe('verdicts judged by the ratio', () => {
  const health = { requestsPerSecond: 8843, p95Ms: 6, connections: 20 };

  it('passes a latency over its absolute figure on a slower machine while within its multiple', () => {
    const v = ratioVerdict('count', BUDGETS.count, load({ p95: 150 }), health);
    expect(v.pass).toBe(true);
    expect(v.measured).toContain('p95 150.0 ms = 25.00 × health');
    expect(v.measured).toContain('absolute 150.0 ms / 100 ms = 1.50');
  });

  it('fails a latency under its absolute figure when over its multiple', () => {
    expect(ratioVerdict('count', BUDGETS.count, load({ p95: 90 }), { ...health, p95Ms: 2 }).pass).toBe(false);
  });

  it('judges a throughput by its share of health', () => {
    const slow = ratioVerdict('transfer', BUDGETS.transfer, load({ requestsPerSecond: 575 }), health);
    expect(slow.pass).toBe(true);
    expect(slow.measured).toContain('575 req/s = 6.50 % of health');
    expect(ratioVerdict('transfer', BUDGETS.transfer, load({ requestsPerSecond: 1100 }), { ...health, requestsPerSecond: 25_000 }).pass).toBe(false);
  });

  it('fails on errors, without a result or without a health baseline', () => {
    expect(ratioVerdict('count', BUDGETS.count, load({ p95: 10, errors: 1 }), health).pass).toBe(false);
    expect(ratioVerdict('count', BUDGETS.count, undefined, health).pass).toBe(false);
    expect(ratioVerdict('count', BUDGETS.count, load({}), undefined).measured).toBe('no health baseline in this run');
  });

  it('fails the outbox when a change is missing, whatever its rate', () => {
    const queue = load({ connections: 1, requestsPerSecond: 100, responses: 199 });
    expect(queueVerdict('outbox', BUDGETS.offlineQueue, queue, 200, health).pass).toBe(false);
    expect(queueVerdict('outbox', BUDGETS.offlineQueue, { ...queue, responses: 200 }, 200, health).pass).toBe(true);
  });
});
