/**
 * The stock module's boundary (docs/decisions/038-stock-commands.md): row locks and ledger rows
 * are written only under server/modules/stock/, so every way of moving stock keeps decision 009's
 * lock order and writes its movements through the ledger primitives. This reads the server's and
 * the scripts' source (tests aside: they may shape data) and fails on a lock clause of a statement
 * that reads stock data, or an `inventory_logs` insert, anywhere else, naming the file and line.
 * Locks of other rows are not stock locks and stay with their modules, but each file that takes
 * one is declared in {@link otherLocks} with the rows it locks and why that cannot deadlock with
 * the stock order (decision 009, "Locks outside the stock order"): a new one fails here until it
 * is declared.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const stockModule = 'server/modules/stock/';

/**
 * Places outside the stock module allowed one of the patterns, each for a reason that is not
 * stock: keep this list short and say why.
 */
const allowed: Record<string, string> = {
  'scripts/bench/generate.ts': "bulk-writes a benchmark database's 90 days of history; the benchmark checks ledger == stock after",
};

/**
 * Every file outside the stock module that locks rows other than stock data, with the rows and
 * why the lock is safe. Each is one row (or a claim that skips locked rows), taken before any
 * stock step of its transaction or in a transaction that takes none (decision 009).
 */
const otherLocks: Record<string, string> = {
  'server/modules/billing/plans.ts':
    "the company's subscription row, before counting against a plan limit (adding a unit, item, garage or user): taken before the stock steps of the same transaction, so two additions at the limit are serialised and never both pass",
  'server/modules/billing/webhook.ts': "the company's subscription row while a Stripe event is applied, so events apply in order; no stock is touched in that transaction",
  'server/modules/onboarding/service.ts':
    "the company's tenants row while a setup step is saved, so steps are saved in order once each: taken before the plan limit's subscription row and before the stock steps of the storage and properties steps",
  'server/modules/team/invitation-link.ts': 'the invitation being accepted, so a link is used once; no stock is touched in that transaction',
  'server/modules/team/service.ts':
    "an invitation being resent (before the plan limit's subscription row), and a member with the company's owners before a role change or removal, so the last owner is never removed; no stock is touched in those transactions",
  'server/modules/webhooks/service.ts':
    "a webhook endpoint before it is changed, and the company's tenants row (FOR NO KEY UPDATE) before counting endpoints against the limit of 10; no stock is touched in those transactions",
  'server/modules/webhooks/delivery.ts':
    'the webhook deliveries claimed by a sender (FOR UPDATE SKIP LOCKED, so two senders never claim one) and the endpoint whose failing state an outcome updates; no stock is touched in those transactions',
};

/** A row-lock clause in SQL (`FOR UPDATE`, `FOR NO KEY UPDATE`, `FOR SHARE`, `FOR KEY SHARE`) or drizzle's `.for(…)`. */
const lockClause = /\bfor\s+(?:no\s+key\s+update|key\s+share|update|share)\b|\.for\(\s*['"`]/i;
/** The tables whose rows the lock order covers (units, garages, their stock rows, items), scans and the ledger. */
const stockTables = /\b(?:units|garages|unit_inventory|garage_inventory|unitInventory|garageInventory|items|scans|inventory_logs|inventoryLogs)\b/;
/** Where the statement of a lock clause starts: the last SQL template or drizzle query before it. */
const statementStart = /sql`|\.select\(|\.update\(|\.delete\(/g;
/** A ledger row written by hand: SQL or drizzle. */
const ledgerInsert = /insert\s+into\s+inventory_logs\b|\.insert\(\s*inventoryLogs\b/i;

/** The source files under `dir`, as paths relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(root, dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(relative(root, path));
    return /\.(ts|tsx|js|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [relative(root, path)] : [];
  });
}

/** `text` without its comments, line breaks kept so line numbers still match. */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Whether the statement ending at `end` of `code` (its lock clause) names a stock table. */
function locksStock(code: string, end: number): boolean {
  let start = 0;
  for (const m of code.slice(0, end).matchAll(statementStart)) start = m.index;
  return stockTables.test(code.slice(start, end));
}

/** Every line of `path` with a stock lock or a ledger insert, as 'path:line: text'. */
function offences(path: string, text: string): string[] {
  const code = withoutComments(text);
  let offset = 0;
  return code.split('\n').flatMap((line, k) => {
    const at = offset;
    offset += line.length + 1;
    const lock = lockClause.exec(line);
    const breach = (lock !== null && locksStock(code, at + lock.index)) || ledgerInsert.test(line);
    return breach ? [`${path}:${k + 1}: ${line.trim()}`] : [];
  });
}

/** The files of `files` outside the stock module with a lock clause of rows other than stock data. */
function filesLockingOtherRows(files: { path: string; text: string }[]): string[] {
  return files
    .filter((f) => !f.path.startsWith(stockModule) && !(f.path in allowed))
    .filter((f) => {
      const code = withoutComments(f.text);
      return [...code.matchAll(new RegExp(lockClause.source, 'gi'))].some((m) => !locksStock(code, m.index));
    })
    .map((f) => f.path)
    .sort();
}

/** The stock locks and ledger inserts of `files` outside the stock module and the allowed places. */
export function boundaryBreaches(files: { path: string; text: string }[]): string[] {
  return files.filter((f) => !f.path.startsWith(stockModule) && !(f.path in allowed)).flatMap((f) => offences(f.path, f.text));
}

describe('the stock module boundary', () => {
  const files = [...sourceFiles('server'), ...sourceFiles('scripts')].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));

  it('has no row lock and no ledger insert outside server/modules/stock/', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(boundaryBreaches(files)).toEqual([]);
  });

  it('finds a stock lock or a ledger insert written outside, and not one in a comment or of other rows', () => {
    const breaches = boundaryBreaches([
      { path: 'server/modules/units/service.ts', text: 'const a = 1;\nsql`select 1 from units where id = ${id} for share`;' },
      { path: 'server/modules/garages/service.ts', text: "await tx\n  .select({ id: garages.id })\n  .from(garages)\n  .for('update');" },
      { path: 'server/modules/team/service.ts', text: "await tx.select().from(memberships).for('update');\nsql`select 1 from units`;" },
      { path: 'server/modules/scans/service.ts', text: 'sql`insert into inventory_logs (tenant_id) values (${t})`' },
      { path: 'server/modules/forecast/service.ts', text: '// locks FOR UPDATE, then inserts into inventory_logs\n/* for share */ const b = 2;' },
      { path: 'server/modules/stock/commands/consume.ts', text: 'sql`select 1 for update`' },
    ]);
    expect(breaches).toEqual([
      'server/modules/units/service.ts:2: sql`select 1 from units where id = ${id} for share`;',
      "server/modules/garages/service.ts:4: .for('update');",
      'server/modules/scans/service.ts:1: sql`insert into inventory_logs (tenant_id) values (${t})`',
    ]);
  });

  it('declares every file that locks other rows outside the stock module, and only those', () => {
    expect(filesLockingOtherRows(files)).toEqual(Object.keys(otherLocks).sort());
    expect(
      filesLockingOtherRows([
        { path: 'server/modules/team/service.ts', text: "await tx.select().from(memberships).for('update');" },
        { path: 'server/modules/units/service.ts', text: 'sql`select 1 from units where id = ${id} for share`;' },
        { path: 'server/modules/stock/locks.ts', text: 'sql`select 1 from tenants for update`' },
      ]),
    ).toEqual(['server/modules/team/service.ts']);
  });

  it('lists only allowed places that still exist', () => {
    for (const path of Object.keys(allowed)) expect(files.map((f) => f.path)).toContain(path);
  });
});
