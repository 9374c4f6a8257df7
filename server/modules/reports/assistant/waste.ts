/**
 * Waste & Optimization Report (report type `waste`, docs/product.md "Constants and limits"), three
 * findings over the range:
 * - far above median use: a unit whose use of an item is more than FAR_FACTOR × the median use
 *   of that item among the units that used it, and at least FAR_MARGIN more (so 1 against a
 *   median of 0.5 is not flagged); value = the cost of that unit's use;
 * - lost in counts: stock that stocktakes (negative `count` rows, at units and garages) found
 *   missing; value = quantity × the cost recorded on the rows;
 * - unused stock: items with stock now (garages and units) and no use in the range; value =
 *   stock × the item's current cost.
 * Rows: findings in that order, largest value first within each.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { count, listed, mdText, money, namedUsage, period, usd, type ReportBuilder } from './shared';

/** A unit's use is far above the median when it exceeds FAR_FACTOR × median … */
const FAR_FACTOR = 2;
/** … and is at least FAR_MARGIN more than the median. */
const FAR_MARGIN = 3;
/** Entries named per finding in the facts. */
const NAMED = 3;

const findings = ['Far above median use', 'Lost in counts', 'Unused stock'] as const;
type Finding = (typeof findings)[number];

export const wasteReport: ReportBuilder = async (tx, tenantId, range) => {
  const all = sql`
    with usage as (${namedUsage(tenantId, range)}),
    per_unit as (
      select unit_id, unit_name, item_id, item_name, sum(used) as used, sum(cost) as cost from usage group by 1, 2, 3, 4
    ),
    medians as (
      select item_id, (percentile_cont(0.5) within group (order by used))::numeric as median from per_unit group by item_id
    ),
    stock as (
      select item_id, sum(quantity) as quantity from (
        select item_id, quantity from garage_inventory where tenant_id = ${tenantId}
        union all
        select item_id, quantity from unit_inventory where tenant_id = ${tenantId}
      ) s group by item_id
    ),
    found as (
      select 1 as rank, ${findings[0]}::text as finding, p.unit_name as location, p.item_name as item, p.used as quantity, m.median, p.cost as value
      from per_unit p join medians m on m.item_id = p.item_id
      where p.used > ${FAR_FACTOR}::int * m.median and p.used >= m.median + ${FAR_MARGIN}::int
      union all
      select 2, ${findings[1]}::text,
        coalesce(u.name, g.name, case when l.source_type = 'unit' then 'Deleted unit' else 'Deleted garage' end),
        coalesce(i.name, 'Deleted item'), sum(-l.quantity_change), null, sum(-l.quantity_change * l.unit_cost)
      from inventory_logs l
      left join units u on l.source_type = 'unit' and u.tenant_id = l.tenant_id and u.id = l.unit_id
      left join garages g on l.source_type = 'garage' and g.tenant_id = l.tenant_id and g.id = l.garage_id
      left join items i on i.tenant_id = l.tenant_id and i.id = l.item_id
      where l.tenant_id = ${tenantId} and l.type = 'count' and l.quantity_change < 0 and l.reversed_at is null
        and l.created_at >= ${range.start.toISOString()}::timestamptz and l.created_at < ${range.end.toISOString()}::timestamptz
      group by l.source_type, l.unit_id, l.garage_id, l.item_id, u.name, g.name, i.name
      union all
      select 3, ${findings[2]}::text, 'All locations', i.name, s.quantity, null, s.quantity * i.count_cost
      from stock s join items i on i.tenant_id = ${tenantId} and i.id = s.item_id
      where s.quantity > 0 and not exists (select 1 from usage where usage.item_id = s.item_id)
    )
    select *, row_number() over (partition by rank order by value desc, location, item) as place from found`;

  type Row = { finding: Finding; location: string; item: string; quantity: number; median: string | null; value: string };
  const rows = await queryRows<Row>(
    tx,
    sql`select finding, location, item, quantity::bigint, median::text, ${money(sql`value`)} as value
        from (${all}) f order by rank, place limit ${range.limit}`,
  );
  const named = await queryRows<Row>(
    tx,
    sql`select finding, location, item, quantity::bigint, median::text, ${money(sql`value`)} as value
        from (${all}) f where place <= ${NAMED} order by rank, place`,
  );
  const totals = await queryRows<{ finding: Finding; n: number; quantity: number; value: string }>(
    tx,
    sql`select finding, count(*)::int as n, sum(quantity)::bigint as quantity, ${money(sql`sum(value)`)} as value
        from (${all}) f group by finding`,
  );

  const total = (finding: Finding) => totals.find((t) => t.finding === finding);
  const entries = (finding: Finding, describe: (r: Row) => string) =>
    listed(named.filter((r) => r.finding === finding).map(describe), Number(total(finding)!.n));

  const facts = [
    `Rule: a unit's use of an item is far above the median when it is more than ${FAR_FACTOR}× the median use of the units that used that item in the range, and at least ${FAR_MARGIN} more.`,
  ];
  const far = total('Far above median use');
  facts.push(
    far
      ? `Use far above the median in ${period(range)}: ${entries('Far above median use', (r) => `${mdText(r.location)} used ${r.quantity} ${mdText(r.item)} (median ${r.median}, ${usd(r.value)})`)}.`
      : `No unit used an item far above the median in ${period(range)}.`,
  );
  const lost = total('Lost in counts');
  facts.push(
    lost
      ? `Stock lost in counts in the range (${count(Number(lost.quantity), 'item')}, ${usd(lost.value)} at the recorded cost): ${entries('Lost in counts', (r) => `${r.quantity} ${mdText(r.item)} at ${mdText(r.location)} (${usd(r.value)})`)}.`
      : 'No stock was found missing in counts in the range.',
  );
  const unused = total('Unused stock');
  facts.push(
    unused
      ? `Items in stock with no use in the range (${count(Number(unused.n), 'item')}, ${Number(unused.quantity)} on hand, ${usd(unused.value)} at current cost): ${entries('Unused stock', (r) => `${mdText(r.item)} ${r.quantity} (${usd(r.value)})`)}.`
      : 'Every item in stock was used in the range.',
  );
  return {
    facts,
    columns: ['Finding', 'Location', 'Item', 'Quantity', 'Median use', 'Value ($)'],
    rows: rows.map((r) => [r.finding, r.location, r.item, Number(r.quantity), r.median ?? '', r.value]),
  };
};
