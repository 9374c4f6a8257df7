/**
 * Supply Cost Analysis (report type `expenses`, docs/product.md "Constants and limits"): the cost
 * of the range's usage (usage-sql.ts: quantity used × the item's cost when it was used) by
 * category, by item and by unit, each with its share of the total. Rows mix the three groupings,
 * largest cost first (a category before an item before a unit at equal cost), so the biggest spend
 * survives the record limit.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { count, listed, LISTED, mdText, money, namedUsage, period, usd, type ReportBuilder } from './shared';

const groupings = ['Category', 'Item', 'Unit'] as const;

export const expensesReport: ReportBuilder = async (tx, tenantId, range) => {
  const groups = sql`
    with usage as (${namedUsage(tenantId, range)}),
    total as (select sum(cost) as cost from usage),
    grouped as (
      select 1 as rank, 'Category' as grouping, category as name, sum(used) as used, sum(cost) as cost from usage group by category
      union all
      select 2, 'Item', item_name, sum(used), sum(cost) from usage group by item_id, item_name
      union all
      select 3, 'Unit', unit_name, sum(used), sum(cost) from usage group by unit_id, unit_name
    )
    select g.rank, g.grouping, g.name, g.used, g.cost, round(coalesce(100 * g.cost / nullif(t.cost, 0), 0), 1)::text as share,
      row_number() over (partition by g.rank order by g.cost desc, g.name) as place, count(*) over (partition by g.rank) as n
    from grouped g cross join total t`;
  type Group = { grouping: (typeof groupings)[number]; name: string; used: number; cost: string; share: string; n: number };
  const select = sql`select grouping, name, used::bigint, ${money(sql`cost`)} as cost, share, n::int`;

  const rows = await queryRows<Group>(tx, sql`${select} from (${groups}) g order by g.cost desc, rank, name limit ${range.limit}`);
  const leaders = await queryRows<Group>(tx, sql`${select} from (${groups}) g where place <= ${LISTED} order by rank, place`);
  const [t] = await queryRows<{ used: number; cost: string }>(
    tx,
    sql`select coalesce(sum(used), 0)::bigint as used, ${money(sql`sum(cost)`)} as cost from (${namedUsage(tenantId, range)}) u`,
  );

  const facts = ["Cost = quantity used × the item's cost when it was used; usage excludes transfers between locations."];
  if (leaders.length === 0) {
    facts.push(`No supply cost in ${period(range)}: nothing was used.`);
  } else {
    facts.push(`Total supply cost in ${period(range)}: ${usd(t!.cost)} for ${count(Number(t!.used), 'item')} used.`);
    for (const grouping of groupings) {
      const top = leaders.filter((g) => g.grouping === grouping);
      const parts = top.map((g) => `${mdText(g.name)} ${usd(g.cost)} (${g.share}%)`);
      facts.push(`By ${grouping.toLowerCase()}: ${listed(parts, Number(top[0]!.n))}.`);
    }
  }
  return {
    facts,
    columns: ['Grouping', 'Name', 'Used', 'Cost ($)', 'Share of total (%)'],
    rows: rows.map((r) => [r.grouping, r.name, Number(r.used), r.cost, r.share]),
  };
};
