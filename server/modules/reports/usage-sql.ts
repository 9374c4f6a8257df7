/**
 * The one definition of usage (docs/product.md "Stock movements and statuses"), shared by every
 * report: decreases of a unit's stock that are not transfers — `consumption` and negative `count`
 * movements at units — costed at the movement's unit cost. Matches the partial index
 * inventory_logs_usage_idx and the triggers of migration 0006 that keep the usage totals
 * (unit_usage_daily, garage_usage_daily, garage_usage_weekly; docs/decisions/007-usage-rollups.md).
 *
 * Reports over long spans read whole UTC weeks and days from the totals and only the parts of
 * days cut by an instant of the report (a period that starts at 14:05, say) from the movements,
 * so every sum is exactly the sum of the movements of its span.
 */
import { utc } from '@date-fns/utc';
import { addDays, eachDayOfInterval, isEqual, isMonday, max, min, startOfDay, subDays } from 'date-fns';
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../../db/client';
import { isUsageSql } from '../stock/rules';

/**
 * Days and weeks are UTC ones (docs/product.md "Reports"), whatever the server's time zone
 * (docs/decisions/017-dates.md).
 */
const inUtc = { in: utc };


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
    where l.tenant_id = ${tenantId} and ${isUsageSql} and l.created_at >= ${at(start)} and l.created_at < ${at(end)}`;
}

/** How a span splits between the totals and the movements (see {@link splitSpan}). */
export interface SpanSplit {
  /** Whole UTC weeks read from weekly totals, as their Mondays ('YYYY-MM-DD'); empty unless asked for. */
  weeks: string[];
  /** Whole UTC days read from daily totals ('YYYY-MM-DD'), outside `weeks`. */
  days: string[];
  /** Parts of cut days inside the span, read from the movements: [start, end) instants. */
  pieces: { start: Date; end: Date }[];
}

/** 'YYYY-MM-DD' of the UTC day starting at `midnight`. */
const dayOf = (midnight: Date): string => midnight.toISOString().slice(0, 10);

/**
 * Splits the span [from, to) (UTC instants) into whole UTC weeks (Monday to Sunday, when `weeks`
 * is set), whole UTC days and pieces of days. A day is cut when `from`, `to` or one of `cuts` (the
 * other window boundaries a report filters by) falls strictly inside it; a cut day is read as its
 * piece inside the span, and a week is whole only when none of its days is cut. So every whole
 * day or week lies entirely inside or entirely outside each window bounded by those instants, and
 * a window's filter on its start instant is exact.
 */
export function splitSpan(from: Date, to: Date, cuts: Date[] = [], opts: { weeks?: boolean } = {}): SpanSplit {
  const cutDays = new Set(
    [from, to, ...cuts]
      .filter((at) => at >= from && at <= to && !isEqual(startOfDay(at, inUtc), at))
      .map((at) => startOfDay(at, inUtc).getTime()),
  );
  const pieces = [...cutDays]
    .sort((a, b) => a - b)
    .map((day) => ({ start: max([from, day]), end: min([to, addDays(day, 1, inUtc)]) }))
    .filter((p) => p.start < p.end);
  // The days from the span's first to the last that ends by `to`; the first is cut unless the
  // span starts at its midnight.
  const lastWhole = subDays(to, 1, inUtc);
  const whole = (lastWhole < from ? [] : eachDayOfInterval({ start: from, end: lastWhole }, inUtc)).filter(
    (day) => !cutDays.has(day.getTime()),
  );
  const weeks: Date[] = [];
  const days: Date[] = [];
  for (let i = 0; i < whole.length; i++) {
    const day = whole[i]!;
    // The whole days are distinct and in order: seven of them from a Monday to the Sunday after
    // it are that whole week.
    if (opts.weeks && isMonday(day, inUtc) && whole[i + 6]?.getTime() === addDays(day, 6, inUtc).getTime()) {
      weeks.push(day);
      i += 6;
    } else days.push(day);
  }
  return { weeks: weeks.map(dayOf), days: days.map(dayOf), pieces };
}

/** SQL: a list of 'YYYY-MM-DD' as a date[] parameter. */
const dates = (list: string[]): SQL => sql`${pgArray(list)}::date[]`;

/** SQL: `select` over each piece's movements, joined by union all (none: no rows). */
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
        from inventory_logs l where l.tenant_id = ${tenantId} and ${isUsageSql} and ${piece}`,
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
          where l.tenant_id = ${tenantId} and ${isUsageSql} and ${piece} and u.garage_id is not null`,
      )}
    ) g group by garage_id, item_id having sum(used) > 0`;
}

/** Dollars as returned by SQL numeric (a string) -> a number rounded to cents. */
export const dollars = (v: unknown): number => Math.round(Number(v ?? 0) * 100) / 100;
