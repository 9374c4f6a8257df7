/**
 * Usage Analysis Per Stay (report type `usage`, docs/product.md "Constants and limits"): per unit
 * and item, what was used in the range and what it cost (usage as defined in usage-sql.ts), the
 * unit's stays and the use per stay, the average per day of the range and the busiest UTC day.
 *
 * The stays are those of docs/product.md "Stays" (stays/stay-rules.ts) that departed in the
 * range, counted as the forecast learns its usage per stay (forecast/rates.ts): by the company's
 * calendar days, departure on or after the range's first day and before today (a stay departing
 * today may not be cleaned up yet). Use per stay is a unit's usage ÷ those stays, empty for a
 * unit without one. The facts add the totals, the stays and the use per stay over the units that
 * had stays, the average per day over all units, the busiest day and the units that used the
 * most. Rows: by cost, then quantity used. The per-stay columns come after the columns the report
 * had before them, so a reader of the CSV by position finds those where they were.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { companyZone, localDay } from '../../stays/local-days';
import { isStay } from '../../stays/stay-rules';
import { count, listed, LISTED, mdText, money, namedUsage, period, usd, type ReportBuilder } from './shared';

export const usageReport: ReportBuilder = async (tx, tenantId, range) => {
  const usage = namedUsage(tenantId, range);
  const perDay = (used: SQL) => sql`round(${used}::numeric / ${range.days}::int, 2)::text`;
  const zone = await companyZone(tx, tenantId);
  const stays = sql`
    select reservations.unit_id, count(*)::int as stays from reservations
    where reservations.tenant_id = ${tenantId} and ${isStay()}
      and reservations.departure_date >= ${localDay(range.start, zone)}::date and reservations.departure_date < ${localDay(range.end, zone)}::date
    group by reservations.unit_id`;

  const rows = await queryRows<{
    unit: string; item: string; used: number; cost: string; per_day: string; busiest_day: string; busiest_used: number; stays: number; per_stay: string;
  }>(
    tx,
    sql`
    with usage as (${usage}),
    stays as (${stays}),
    per as (
      select unit_id, unit_name, item_id, item_name, sum(used) as used, sum(cost) as cost from usage group by 1, 2, 3, 4
    ),
    busiest as (
      select distinct on (unit_id, item_id) unit_id, item_id, day, used
      from (select unit_id, item_id, day, sum(used) as used from usage group by 1, 2, 3) d
      order by unit_id, item_id, used desc, day
    )
    select p.unit_name as unit, p.item_name as item, p.used::bigint as used, ${money(sql`p.cost`)} as cost, ${perDay(sql`p.used`)} as per_day,
      to_char(b.day, 'YYYY-MM-DD') as busiest_day, b.used::bigint as busiest_used,
      coalesce(s.stays, 0) as stays, coalesce(round(p.used::numeric / s.stays, 2)::text, '') as per_stay
    from per p join busiest b on b.unit_id = p.unit_id and b.item_id = p.item_id
    left join stays s on s.unit_id = p.unit_id
    order by p.cost desc, p.used desc, p.unit_name, p.item_name limit ${range.limit}`,
  );
  const [t] = await queryRows<{ used: number; cost: string; units: number; per_day: string }>(
    tx,
    sql`select coalesce(sum(used), 0)::bigint as used, ${money(sql`sum(cost)`)} as cost, count(distinct unit_id)::int as units,
          ${perDay(sql`coalesce(sum(used), 0)`)} as per_day
        from (${usage}) u`,
  );
  // Over the units that had stays: their stays, and their usage (none counts as 0) per stay.
  const [perStay] = await queryRows<{ stays: number; units: number; used: string | null; cost: string | null }>(
    tx,
    sql`with stays as (${stays}), usage as (select u.* from (${usage}) u join stays s on s.unit_id = u.unit_id)
        select coalesce(sum(s.stays), 0)::int as stays, count(*)::int as units,
          round((select coalesce(sum(used), 0) from usage)::numeric / nullif(sum(s.stays), 0), 2)::text as used,
          round((select coalesce(sum(cost), 0) from usage) / nullif(sum(s.stays), 0), 2)::text as cost
        from stays s`,
  );
  const [busiest] = await queryRows<{ day: string; used: number; cost: string }>(
    tx,
    sql`select to_char(day, 'YYYY-MM-DD') as day, sum(used)::bigint as used, ${money(sql`sum(cost)`)} as cost
        from (${usage}) u group by u.day order by sum(used) desc, u.day limit 1`,
  );
  const units = await queryRows<{ unit: string; used: number; cost: string; n: number }>(
    tx,
    sql`select unit_name as unit, sum(used)::bigint as used, ${money(sql`sum(cost)`)} as cost, count(*) over ()::int as n
        from (${usage}) u group by unit_id, unit_name order by sum(u.cost) desc, sum(u.used) desc, unit_name limit ${LISTED}`,
  );

  const staysFact =
    perStay!.stays > 0
      ? `Stays that departed in the range (by the company's calendar days, before today): ${count(perStay!.stays, 'stay')} at ${count(perStay!.units, 'unit')}, which used ${perStay!.used} per stay on average, costing ${usd(perStay!.cost!)} a stay.`
      : "No stay departed in the range, so there is no use per stay: stays come from Hostaway or a property's calendar link.";
  const facts = [
    'Usage is what was consumed at units plus stock found missing in unit counts; transfers between locations are not usage.',
  ];
  if (!busiest) {
    facts.push(`No usage was recorded in ${period(range)}.`, staysFact);
  } else {
    facts.push(
      `In ${period(range)}: ${count(Number(t!.used), 'item')} used at ${count(Number(t!.units), 'unit')}, costing ${usd(t!.cost)}; ${t!.per_day} used per day on average.`,
      staysFact,
      `Busiest day: ${busiest.day} (UTC), ${Number(busiest.used)} used, ${usd(busiest.cost)}.`,
      `By unit: ${listed(units.map((u) => `${mdText(u.unit)} ${Number(u.used)} used (${usd(u.cost)})`), Number(units[0]!.n))}.`,
    );
  }
  return {
    facts,
    columns: ['Unit', 'Item', 'Used', 'Cost ($)', 'Average per day', 'Busiest day (UTC)', 'Used that day', 'Stays', 'Used per stay'],
    rows: rows.map((r) => [r.unit, r.item, Number(r.used), r.cost, r.per_day, r.busiest_day, Number(r.busiest_used), Number(r.stays), r.per_stay]),
  };
};
