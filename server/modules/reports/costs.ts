/**
 * Cost analysis (docs/product.md "Screens: Reports" cost card, "Server rules"
 * calculate_all_unit_costs and get_cost_trends): usage cost per UTC day over the period (days
 * without usage are zeros) and per unit for the period, the last 7 days and the last 30 days. All
 * sums are exact SQL integers of cents.
 */
import { utc } from '@date-fns/utc';
import { addDays, parseISO, subDays } from 'date-fns';
import { sql, type SQL } from 'drizzle-orm';
import type { CostQuery, CostReport } from '../../../common/contracts/reports';
import { queryRows, type Tx } from '../../db/client';
import { dollars, unitUsageByDay } from './usage-sql';

/** [start, end) instants. */
type Span = { start: Date; end: Date };

/**
 * The period of a cost query as instants: week = the 7 days before `now`, month = the 30 days
 * before `now`, custom = from the start date's midnight UTC to the end of the end date (exclusive
 * next midnight).
 */
export function costPeriod(q: CostQuery, now: Date): Span {
  if (q.period === 'custom') {
    return { start: parseISO(q.start!, { in: utc }), end: addDays(parseISO(q.end!, { in: utc }), 1) };
  }
  return { start: subDays(now, q.period === 'month' ? 30 : 7, { in: utc }), end: now };
}

/** An instant as SQL timestamptz. */
const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;

/** SQL: a sum of whole cents (null counts as 0) as dollars text with two decimals, e.g. '12.30'. */
const dollarsText = (cents: SQL): SQL => sql`round(coalesce(${cents}, 0) / 100, 2)::text`;

/**
 * SQL: the usage rows (see unitUsageByDay) of the period and of the last 30 days, the windows the
 * report sums (the last 7 days lie inside the 30). Windows that overlap or touch are read as one
 * span; a custom period long before now is read apart, so the days between are never read.
 */
function usageOfWindows(tenantId: string, period: Span, month: Span, cuts: Date[]): SQL {
  const [first, second] = period.start <= month.start ? [period, month] : [month, period];
  if (second.start <= first.end) {
    return unitUsageByDay(tenantId, first.start, first.end > second.end ? first.end : second.end, cuts);
  }
  return sql`${unitUsageByDay(tenantId, first.start, first.end, cuts)} union all ${unitUsageByDay(tenantId, second.start, second.end, cuts)}`;
}

/**
 * Reads the cost report of `tenantId` for `q` as of `now`: the period's total, its daily trend
 * (UTC days, zeros included) and every unit's cost for the period, the last 7 and the last 30
 * days, in dollars rounded to cents.
 *
 * One statement and one pass over the usage: a large tenant has ~100,000 usage rows a month,
 * read as ~30,000 daily totals per unit plus the movements of the days a window boundary cuts.
 * The usage of the union of the three windows is summed per UTC day, per unit and in total at
 * once (grouping sets), each sum filtered to its own window, so every figure is the same sum as
 * over its window alone.
 */
export async function getCostReport(tx: Tx, tenantId: string, q: CostQuery, now: Date): Promise<CostReport> {
  const { start, end } = costPeriod(q, now);
  const monthStart = subDays(now, 30, { in: utc });
  const weekStart = subDays(now, 7, { in: utc });
  const lastDay = new Date(end.getTime() - 1);
  const within = (a: Date, b: Date) => sql`created_at >= ${at(a)} and created_at < ${at(b)}`;

  const [report] = await queryRows<{
    total_cost: string;
    /** numeric: the sum of bigint daily totals. */
    total_items: string;
    trend: { date: string; total_cost: string; total_items: number }[];
    units: { unit_id: string; unit_name: string; period_cost: string; week_cost: string; month_cost: string }[] | null;
  }>(
    tx,
    sql`
    with sums as (
      -- grouping(day, unit_id): 1 = a day's sums, 2 = a unit's, 3 = the total.
      select grouping(day, unit_id) as level, day, unit_id,
        sum(cents) filter (where ${within(start, end)}) as period_cents,
        sum(used) filter (where ${within(start, end)}) as period_used,
        sum(cents) filter (where ${within(weekStart, now)}) as week_cents,
        sum(cents) filter (where ${within(monthStart, now)}) as month_cents
      -- Whole cents (unit_cost has two decimals), numeric as the daily totals are (decision
      -- 011): the planner still hashes the three groupings in one pass (MixedAggregate) instead
      -- of sorting the rows (100,000 for a large tenant's month) for one of them.
      from (${usageOfWindows(tenantId, { start, end }, { start: monthStart, end: now }, [start, end, weekStart, monthStart, now])}) usage
      group by grouping sets ((day), (unit_id), ())
    )
    select
      (select ${dollarsText(sql`period_cents`)} from sums where level = 3) as total_cost,
      (select coalesce(period_used, 0) from sums where level = 3) as total_items,
      (select json_agg(json_build_object(
                'date', to_char(d, 'YYYY-MM-DD'),
                'total_cost', ${dollarsText(sql`s.period_cents`)},
                'total_items', coalesce(s.period_used, 0)) order by d)
         from generate_series((${at(start)} at time zone 'UTC')::date, (${at(lastDay)} at time zone 'UTC')::date, interval '1 day') as d
         left join sums s on s.level = 1 and s.day = d::date) as trend,
      (select json_agg(json_build_object(
                'unit_id', u.id, 'unit_name', u.name,
                'period_cost', ${dollarsText(sql`s.period_cents`)},
                'week_cost', ${dollarsText(sql`s.week_cents`)},
                'month_cost', ${dollarsText(sql`s.month_cents`)}) order by coalesce(s.period_cents, 0) desc, u.name, u.id)
         from units u left join sums s on s.level = 2 and s.unit_id = u.id
         where u.tenant_id = ${tenantId}) as units`,
  );
  const r = report!;
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    total_cost: dollars(r.total_cost),
    total_items: Number(r.total_items ?? 0),
    trend: r.trend.map((d) => ({ date: d.date, total_cost: dollars(d.total_cost), total_items: Number(d.total_items) })),
    units: (r.units ?? []).map((u) => ({
      unit_id: u.unit_id,
      unit_name: u.unit_name,
      period_cost: dollars(u.period_cost),
      week_cost: dollars(u.week_cost),
      month_cost: dollars(u.month_cost),
    })),
  };
}
