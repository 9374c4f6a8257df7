/**
 * The one definition of usage (docs/product.md "Stock movements and statuses"), shared by every
 * report: decreases of a unit's stock that are not transfers — `consumption` and negative `count`
 * rows at units — costed at the ledger row's unit cost. Matches the partial index
 * inventory_logs_usage_idx and the triggers of migration 0006 that keep the usage totals
 * (unit_usage_daily, garage_usage_daily, garage_usage_weekly; docs/decisions/007-usage-rollups.md).
 *
 * Reports over long spans read whole UTC weeks and days from the totals and only the parts of
 * days cut by an instant of the report (a period that starts at 14:05, say) from the ledger rows,
 * so every sum is exactly the sum of the ledger rows of its span.
 */
import { sql, type SQL } from 'drizzle-orm';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The usage condition on ledger rows aliased `l`. */
const isUsage = sql`l.source_type = 'unit' and l.quantity_change < 0 and l.type in ('consumption', 'count')`;

/** An instant as SQL timestamptz. */
const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;

/**
 * SQL for the usage rows of `tenantId` in [start, end): columns unit_id, item_id, used (> 0),
 * cost (numeric dollars), created_at. Use as a CTE or subquery.
 */
export function usageRows(tenantId: string, start: Date, end: Date): SQL {
  return sql`
    select l.unit_id, l.item_id, -l.quantity_change as used, (-l.quantity_change) * l.unit_cost as cost, l.created_at
    from inventory_logs l
    where l.tenant_id = ${tenantId} and ${isUsage} and l.created_at >= ${at(start)} and l.created_at < ${at(end)}`;
}

/** How a span splits between the totals and the ledger rows (see {@link splitSpan}). */
export interface SpanSplit {
  /** Whole UTC weeks read from weekly totals, as their Mondays ('YYYY-MM-DD'); empty unless asked for. */
  weeks: string[];
  /** Whole UTC days read from daily totals ('YYYY-MM-DD'), outside `weeks`. */
  days: string[];
  /** Parts of cut days inside the span, read from the ledger rows: [start, end) instants. */
  pieces: { start: Date; end: Date }[];
}

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const floorDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
/** 1970-01-05, the first Monday of the Unix epoch, in days. */
const FIRST_MONDAY = 4;

/**
 * Splits the span [from, to) (UTC instants) into whole UTC weeks (Monday to Sunday, when `weeks`
 * is set), whole UTC days and pieces of days. A day is cut when `from`, `to` or one of `cuts` (the
 * other window boundaries a report filters by) falls strictly inside it; a cut day is read as its
 * piece inside the span, and a week is whole only when none of its days is cut. So every whole
 * day or week lies entirely inside or entirely outside each window bounded by those instants, and
 * a window's filter on its start instant is exact.
 */
export function splitSpan(from: Date, to: Date, cuts: Date[] = [], opts: { weeks?: boolean } = {}): SpanSplit {
  const lo = from.getTime();
  const hi = to.getTime();
  const cutDays = new Set(
    [lo, hi, ...cuts.map((c) => c.getTime())].filter((ms) => ms >= lo && ms <= hi && ms % DAY_MS !== 0).map(floorDay),
  );
  const pieces = [...cutDays]
    .sort((a, b) => a - b)
    .map((day) => ({ start: new Date(Math.max(lo, day)), end: new Date(Math.min(hi, day + DAY_MS)) }))
    .filter((p) => p.start < p.end);
  const whole: number[] = [];
  for (let day = Math.ceil(lo / DAY_MS); (day + 1) * DAY_MS <= hi; day++) if (!cutDays.has(day * DAY_MS)) whole.push(day);
  const wholeSet = new Set(whole);
  const weeks = opts.weeks
    ? whole.filter((day) => (day - FIRST_MONDAY) % 7 === 0 && [1, 2, 3, 4, 5, 6].every((i) => wholeSet.has(day + i)))
    : [];
  const inWeeks = new Set(weeks.flatMap((monday) => [0, 1, 2, 3, 4, 5, 6].map((i) => monday + i)));
  return {
    weeks: weeks.map((day) => dayOf(day * DAY_MS)),
    days: whole.filter((day) => !inWeeks.has(day)).map((day) => dayOf(day * DAY_MS)),
    pieces,
  };
}

/** SQL: a list of 'YYYY-MM-DD' as a date[] parameter. */
const dates = (list: string[]): SQL => sql`${`{${list.join(',')}}`}::date[]`;

/** SQL: `select` over each piece's ledger rows, joined by union all (none: no rows). */
function overPieces(split: SpanSplit, select: (piece: SQL) => SQL): SQL {
  const parts = split.pieces.map((p) => select(sql`l.created_at >= ${at(p.start)} and l.created_at < ${at(p.end)}`));
  return parts.length > 0 ? sql.join(parts, sql` union all `) : select(sql`false`);
}

/**
 * SQL: the usage of `tenantId` in [from, to) per unit and UTC day, with `cuts` the other window
 * boundaries the caller filters by (see {@link splitSpan}). Columns: unit_id, day (date),
 * created_at (the row's instant, or the day's midnight for a whole day), used (pieces), cents
 * (whole cents, numeric: a day's total has no 64-bit bound, docs/decisions/011-input-limits.md).
 * Several rows may share a unit and day; sum them.
 */
export function unitUsageByDay(tenantId: string, from: Date, to: Date, cuts: Date[]): SQL {
  const split = splitSpan(from, to, cuts);
  return sql`
    select d.unit_id, d.day, (d.day::timestamp at time zone 'UTC') as created_at, d.used, d.cost_cents as cents
    from unit_usage_daily d where d.tenant_id = ${tenantId} and d.day = any(${dates(split.days)})
    union all
    ${overPieces(
      split,
      (piece) => sql`
        select l.unit_id, (l.created_at at time zone 'UTC')::date, l.created_at, -l.quantity_change, -l.quantity_change * l.unit_cost * 100
        from inventory_logs l where l.tenant_id = ${tenantId} and ${isUsage} and ${piece}`,
    )}`;
}

/**
 * SQL: the usage of `tenantId` in [from, to) per garage and item, a unit's usage counting for
 * the garage it is assigned to now (units without a garage count nowhere). Columns: garage_id,
 * item_id, used (> 0).
 */
export function garageUsage(tenantId: string, from: Date, to: Date): SQL {
  const split = splitSpan(from, to, [], { weeks: true });
  return sql`
    select garage_id, item_id, sum(used) as used from (
      select w.garage_id, w.item_id, w.used from garage_usage_weekly w where w.tenant_id = ${tenantId} and w.week = any(${dates(split.weeks)})
      union all
      select d.garage_id, d.item_id, d.used from garage_usage_daily d where d.tenant_id = ${tenantId} and d.day = any(${dates(split.days)})
      union all
      ${overPieces(
        split,
        (piece) => sql`
          select u.garage_id, l.item_id, -l.quantity_change
          from inventory_logs l join units u on u.tenant_id = l.tenant_id and u.id = l.unit_id
          where l.tenant_id = ${tenantId} and ${isUsage} and ${piece} and u.garage_id is not null`,
      )}
    ) g group by garage_id, item_id having sum(used) > 0`;
}

/** Dollars as returned by SQL numeric (a string) -> a number rounded to cents. */
export const dollars = (v: unknown): number => Math.round(Number(v ?? 0) * 100) / 100;
