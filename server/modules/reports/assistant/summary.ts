/**
 * Supply Overview & Insights (report type `summary`, docs/product.md "Constants and limits"): per
 * item, the stock now in garages and in units, how many unit rows are low or critical (derived
 * status, docs/product.md "Stock movements and statuses"), and what was used and what it cost in
 * the range. Rows: items with the most critical, then low, unit rows first, then by cost.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { usageRows } from '../usage-sql';
import { count, listed, LISTED, mdText, money, period, usd, type ReportBuilder } from './shared';
import { stockStatusSql } from '../../stock/rules';

export const summaryReport: ReportBuilder = async (tx, tenantId, range) => {
  const status = stockStatusSql(sql`s.quantity`, sql`i.minimum_threshold`);
  const usage = usageRows(tenantId, range.start, range.end);
  const perItem = sql`
    with used as (
      select item_id, sum(used) as used, sum(cost) as cost
      from (${usage}) us group by item_id
    ),
    garage_stock as (
      select item_id, sum(quantity) as quantity from garage_inventory where tenant_id = ${tenantId} group by item_id
    ),
    unit_stock as (
      select s.item_id, sum(s.quantity) as quantity,
        count(*) filter (where ${status} = 'low') as low, count(*) filter (where ${status} = 'critical') as critical
      from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
      where s.tenant_id = ${tenantId} group by s.item_id
    )
    select i.id, i.name, i.category, coalesce(g.quantity, 0) as in_garages, coalesce(u.quantity, 0) as in_units,
      coalesce(u.low, 0) as low, coalesce(u.critical, 0) as critical, coalesce(used.used, 0) as used, coalesce(used.cost, 0) as cost
    from items i
    left join garage_stock g on g.item_id = i.id
    left join unit_stock u on u.item_id = i.id
    left join used on used.item_id = i.id
    where i.tenant_id = ${tenantId}`;

  const rows = await queryRows<{
    name: string; category: string; in_garages: number; in_units: number; low: number; critical: number; used: number; cost: string;
  }>(
    tx,
    sql`select name, category, in_garages::bigint, in_units::bigint, low::int, critical::int, used::bigint, ${money(sql`cost`)} as cost
        from (${perItem}) p order by critical desc, low desc, p.cost desc, name, id limit ${range.limit}`,
  );
  const [totals] = await queryRows<{
    items: number; garages: number; units: number; in_garages: number; in_units: number; low: number; critical: number; used: number; cost: string;
  }>(
    tx,
    sql`select count(*)::int as items,
          (select count(*) from garages where tenant_id = ${tenantId})::int as garages,
          (select count(*) from units where tenant_id = ${tenantId})::int as units,
          coalesce(sum(in_garages), 0)::bigint as in_garages, coalesce(sum(in_units), 0)::bigint as in_units,
          coalesce(sum(low), 0)::int as low, coalesce(sum(critical), 0)::int as critical,
          -- From the usage rows themselves: the ledger outlives deleted items, and the total includes them.
          (select coalesce(sum(used), 0) from (${usage}) us)::bigint as used,
          (select ${money(sql`sum(cost)`)} from (${usage}) us) as cost
        from (${perItem}) p`,
  );
  const top = await queryRows<{ name: string; used: number; cost: string; n: number }>(
    tx,
    sql`select name, used::bigint, ${money(sql`cost`)} as cost, count(*) over ()::int as n
        from (${perItem}) p where used > 0 order by p.cost desc, used desc, name limit ${LISTED}`,
  );

  const t = totals!;
  const facts = [
    `${count(t.items, 'item')} tracked across ${count(t.garages, 'garage')} and ${count(t.units, 'unit')}.`,
    `Stock on hand now: ${Number(t.in_garages)} in garages and ${Number(t.in_units)} in units.`,
    `Unit stock rows now: ${Number(t.critical)} critical (quantity 0) and ${Number(t.low)} low (at or below the item's minimum).`,
    `In ${period(range)}: ${count(Number(t.used), 'item')} used, costing ${usd(t.cost)}.`,
  ];
  if (top.length > 0) {
    const parts = top.map((r) => `${mdText(r.name)} (${Number(r.used)} used, ${usd(r.cost)})`);
    facts.push(`Highest usage cost: ${listed(parts, Number(top[0]!.n))}.`);
  }
  return {
    facts,
    columns: ['Item', 'Category', 'In garages', 'In units', 'Units low', 'Units critical', 'Used', 'Cost ($)'],
    rows: rows.map((r) => [r.name, r.category, Number(r.in_garages), Number(r.in_units), Number(r.low), Number(r.critical), Number(r.used), r.cost]),
  };
};
