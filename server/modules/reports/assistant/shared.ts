/**
 * What the assistant's report modules share (docs/product.md "Reports"): the shape of a report's facts, its
 * time range, the SQL pieces every report reads (usage with names, derived stock status, money
 * as cents) and the sentence helpers of the facts. Money stays SQL numeric until it is printed
 * as text with two decimals; counts and sums of quantities are SQL bigint (a sum of stock rows
 * or movements passes 2^31) and exact JavaScript numbers below 2^53.
 */
import { utc } from '@date-fns/utc';
import { subDays } from 'date-fns';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { usageRows } from '../usage-sql';

/** The range of a report: the `days` days before `end` (UTC instants, start inclusive, end exclusive). */
export interface ReportRange {
  start: Date;
  end: Date;
  days: number;
  /** Most CSV records to return. */
  limit: number;
}

/**
 * A computed report: `facts` are short markdown sentences with exact numbers (dollars with two
 * decimals) in which every name is written by {@link mdText}; `columns` the CSV header and `rows`
 * at most `limit` records, most important first, names as they are (the CSV neutralises them).
 */
export interface ReportFacts {
  facts: string[];
  columns: string[];
  rows: (string | number)[][];
}

/** Computes one report type for `tenantId` inside the caller's tenant transaction. */
export type ReportBuilder = (tx: Tx, tenantId: string, range: ReportRange) => Promise<ReportFacts>;

/** The last `days` days before `now` (docs/product.md "Constants and limits": time range options). */
export function reportRange(now: Date, days: number, limit: number): ReportRange {
  return { start: subDays(now, days, { in: utc }), end: now, days, limit };
}

/** SQL: a numeric dollar amount (null counts as 0) rounded to cents, as text, e.g. '0.30'. */
export const money = (expr: SQL): SQL => sql`round(coalesce(${expr}, 0), 2)::text`;

/**
 * SQL: the usage rows of the range (the one definition, usage-sql.ts) with the unit's name and
 * current garage, the item's name and category, and the UTC day. The ledger outlives deleted
 * units and items, so their rows are kept under placeholder names and totals stay whole.
 * Columns: unit_id, unit_name, garage_id, item_id, item_name, category, used, cost, day.
 */
export function namedUsage(tenantId: string, range: ReportRange): SQL {
  return sql`
    select us.unit_id, coalesce(u.name, 'Deleted unit') as unit_name, u.garage_id,
      us.item_id, coalesce(i.name, 'Deleted item') as item_name, coalesce(i.category, 'Deleted item') as category,
      us.used, us.cost, (us.created_at at time zone 'UTC')::date as day
    from (${usageRows(tenantId, range.start, range.end)}) us
    left join units u on u.tenant_id = ${tenantId} and u.id = us.unit_id
    left join items i on i.tenant_id = ${tenantId} and i.id = us.item_id`;
}

/**
 * A name of the tenant's (item, category, unit, garage) as markdown text that shows it literally
 * (docs/decisions/012-report-injections.md): every ASCII punctuation character gets a backslash,
 * which CommonMark (§2.4, backslash escapes) reads as that character and nothing else, so no
 * link, image, emphasis, code, HTML or entity starts in a name; line breaks become spaces, so
 * a name starts no block (heading, list, quote) either. Safe anywhere inside a line of text.
 */
export function mdText(name: string): string {
  return name.replace(/\r\n|\r|\n/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** '$' before a dollar amount already printed with two decimals by SQL. */
export const usd = (cents: string): string => `$${cents}`;

/** '1 item', '3 items'. */
export const count = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`;

/** 'a, b, c', followed by ' and N more' when `total` exceeds what is listed. */
export function listed(parts: string[], total: number): string {
  const more = total - parts.length;
  return more > 0 ? `${parts.join(', ')} and ${more} more` : parts.join(', ');
}

/** The range in words, e.g. 'the last 7 days (2026-06-23 12:00 to 2026-06-30 12:00 UTC)'. */
export function period(range: ReportRange): string {
  const at = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
  return `the last ${count(range.days, 'day')} (${at(range.start)} to ${at(range.end)} UTC)`;
}

/** How many entries the facts name in a list before saying 'and N more'. */
export const LISTED = 5;
