/**
 * Cost analysis (SPEC.md "Reports" cost card, §7 calculate_all_unit_costs and get_cost_trends):
 * usage cost per UTC day over the period (days without usage are zeros) and per unit for the
 * period, the last 7 days and the last 30 days. All sums are SQL numeric.
 */
import { sql } from 'drizzle-orm';
import type { CostQuery, CostReport } from '../../../common/contracts/reports';
import { queryRows, type Tx } from '../../db/client';
import { dollars, usageRows } from './usage-sql';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The period of a cost query as instants: week = the 7 days before `now`, month = the 30 days
 * before `now`, custom = from the start date's midnight UTC to the end of the end date (exclusive
 * next midnight).
 */
export function costPeriod(q: CostQuery, now: Date): { start: Date; end: Date } {
  if (q.period === 'custom') {
    return { start: new Date(`${q.start}T00:00:00Z`), end: new Date(new Date(`${q.end}T00:00:00Z`).getTime() + DAY_MS) };
  }
  return { start: new Date(now.getTime() - (q.period === 'month' ? 30 : 7) * DAY_MS), end: now };
}

/** Reads the cost report of `tenantId` for `q` as of `now`. */
export async function getCostReport(tx: Tx, tenantId: string, q: CostQuery, now: Date): Promise<CostReport> {
  const { start, end } = costPeriod(q, now);
  const monthStart = new Date(now.getTime() - 30 * DAY_MS);
  const weekStart = new Date(now.getTime() - 7 * DAY_MS);
  const lastDay = new Date(end.getTime() - 1);

  const trend = await queryRows<{ date: string; total_cost: string; total_items: number }>(
    tx,
    sql`
    with usage as (${usageRows(tenantId, start, end)}),
    daily as (
      select (created_at at time zone 'UTC')::date as day, sum(cost) as cost, sum(used) as used from usage group by 1
    )
    select to_char(d, 'YYYY-MM-DD') as date, coalesce(daily.cost, 0)::text as total_cost, coalesce(daily.used, 0)::int as total_items
    from generate_series((${start.toISOString()}::timestamptz at time zone 'UTC')::date,
                         (${lastDay.toISOString()}::timestamptz at time zone 'UTC')::date, interval '1 day') as d
    left join daily on daily.day = d::date
    order by d`,
  );

  const from = start < monthStart ? start : monthStart;
  const to = end > now ? end : now;
  const units = await queryRows<{ unit_id: string; unit_name: string; period_cost: string; week_cost: string; month_cost: string }>(
    tx,
    sql`
    with usage as (${usageRows(tenantId, from, to)}),
    per_unit as (
      select unit_id,
        sum(cost) filter (where created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz) as period_cost,
        sum(cost) filter (where created_at >= ${weekStart.toISOString()}::timestamptz and created_at < ${now.toISOString()}::timestamptz) as week_cost,
        sum(cost) filter (where created_at >= ${monthStart.toISOString()}::timestamptz and created_at < ${now.toISOString()}::timestamptz) as month_cost
      from usage group by unit_id
    )
    select u.id as unit_id, u.name as unit_name,
      coalesce(p.period_cost, 0)::text as period_cost, coalesce(p.week_cost, 0)::text as week_cost, coalesce(p.month_cost, 0)::text as month_cost
    from units u left join per_unit p on p.unit_id = u.id
    where u.tenant_id = ${tenantId}
    order by coalesce(p.period_cost, 0) desc, u.name, u.id`,
  );

  const [totals] = await queryRows<{ cost: string; used: number }>(
    tx,
    sql`select coalesce(sum(cost), 0)::text as cost, coalesce(sum(used), 0)::int as used from (${usageRows(tenantId, start, end)}) u`,
  );
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    total_cost: dollars(totals!.cost),
    total_items: Number(totals!.used),
    trend: trend.map((r) => ({ date: r.date, total_cost: dollars(r.total_cost), total_items: Number(r.total_items) })),
    units: units.map((r) => ({
      unit_id: r.unit_id,
      unit_name: r.unit_name,
      period_cost: dollars(r.period_cost),
      week_cost: dollars(r.week_cost),
      month_cost: dollars(r.month_cost),
    })),
  };
}
