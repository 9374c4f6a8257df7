/**
 * Restock Recommendations (report type `reorder`, docs/product.md "Constants and limits"), per
 * garage and item:
 * - on hand: the garage's stock now;
 * - units' shortfall: what the units assigned to that garage (units.garage_id) need to bring
 *   each of their stock rows of the item up to the item's minimum_threshold;
 * - average daily use: those units' usage of the item over the range ÷ the range's days;
 * - days of cover: on hand ÷ average daily use (none without use);
 * - order quantity: COVER_DAYS days of average use, rounded up, plus the units' shortfall, minus
 *   on hand, never below 0.
 * Everything is exact SQL numeric; divisions come last so ceil() never sees a rounding tail.
 * Units without a garage have no supply to plan for and are only counted in the facts.
 * A garage item has a row when the garage stocks it, its units used it in the range, or one of
 * its units' rows is at or below the minimum. Rows: the largest order first, then the fewest
 * days of cover. Usage comes from the garages' daily and weekly totals (usage-sql.ts).
 *
 * Not the forecast's order for a garage (`orderQuantity` of common/contracts/stock.ts,
 * docs/product.md "Pick lists"), and kept apart on purpose: docs/product.md "Reports" documents
 * this report's own rule, planned from the range's past usage and the units' shortfall now, so
 * it works for a company without stays and adds no minimum for the garage itself; the forecast's
 * order plans from the properties' upcoming stays over the garage's lead time and keeps the
 * garage's minimum.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { garageUsage } from '../usage-sql';
import { count, listed, LISTED, mdText, period, type ReportBuilder } from './shared';

/** Days of use an order should cover. */
const COVER_DAYS = 14;

export const reorderReport: ReportBuilder = async (tx, tenantId, range) => {
  const days = sql`${range.days}::int`;
  const plan = sql`
    with used as (${garageUsage(tenantId, range.start, range.end)}),
    shortfall as (
      -- Only rows at or below their item's minimum are short: the rows in alert, which the
      -- partial index unit_inventory_alert_idx holds (item_threshold is the item's minimum).
      select u.garage_id, s.item_id, sum(s.item_threshold - s.quantity) as shortfall
      from unit_inventory s
      join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
      where s.tenant_id = ${tenantId} and s.quantity <= s.item_threshold and u.garage_id is not null group by 1, 2
    ),
    on_hand as (select garage_id, item_id, quantity from garage_inventory where tenant_id = ${tenantId}),
    pairs as (
      select garage_id, item_id from on_hand union select garage_id, item_id from shortfall union select garage_id, item_id from used
    )
    select g.name as garage, i.name as item, coalesce(h.quantity, 0) as on_hand, coalesce(sh.shortfall, 0) as shortfall,
      coalesce(us.used, 0) as used
    from pairs p
    join garages g on g.tenant_id = ${tenantId} and g.id = p.garage_id
    join items i on i.tenant_id = ${tenantId} and i.id = p.item_id
    left join on_hand h on h.garage_id = p.garage_id and h.item_id = p.item_id
    left join shortfall sh on sh.garage_id = p.garage_id and sh.item_id = p.item_id
    left join used us on us.garage_id = p.garage_id and us.item_id = p.item_id`;
  const computed = sql`
    select garage, item, on_hand, shortfall, used,
      case when used > 0 then on_hand::numeric * ${days} / used end as cover,
      greatest(0, ceil(${COVER_DAYS}::int * used::numeric / ${days}) + shortfall - on_hand) as to_order
    from (${plan}) p`;

  // One statement computes the plan once (it reads every usage row of the range): the first
  // rows in order, with the totals over all rows as window sums. Rows to order sort first
  // (largest order first, and the order is never negative), so the facts' examples are the
  // first LISTED of these rows that have something to order.
  const ordered = await queryRows<{
    garage: string; item: string; on_hand: number; shortfall: number; per_day: string; cover: string | null; to_order: number;
    lines: number; total: number;
  }>(
    tx,
    sql`select garage, item, on_hand::int, shortfall::bigint, round(used::numeric / ${days}, 2)::text as per_day,
          round(cover, 1)::text as cover, to_order::bigint,
          (count(*) filter (where to_order > 0) over ())::int as lines, (sum(to_order) over ())::bigint as total
        from (${computed}) c
        order by to_order desc, c.cover asc nulls last, garage, item limit ${Math.max(range.limit, LISTED)}`,
  );
  const rows = ordered.slice(0, range.limit);
  const toOrder = ordered.slice(0, LISTED).filter((r) => Number(r.to_order) > 0);
  const [u] = await queryRows<{ unassigned: number }>(
    tx,
    sql`select count(*)::int as unassigned from units where tenant_id = ${tenantId} and garage_id is null`,
  );

  const lines = Number(ordered[0]?.lines ?? 0);
  const facts = [
    `Rule: order quantity = ${COVER_DAYS} days of average daily use (rounded up) plus what the garage's units need to reach their items' minimums, minus the garage's stock on hand, never below 0.`,
    `Average daily use = what the garage's units used in ${period(range)} ÷ ${range.days}; days of cover = stock on hand ÷ average daily use.`,
    lines === 0
      ? 'Nothing needs ordering: every garage covers its units.'
      : `${count(lines, 'garage item')} to order, ${count(Number(ordered[0]!.total), 'piece')} in total.`,
  ];
  if (toOrder.length > 0) {
    const parts = toOrder.map((r) => {
      const use = r.cover === null ? 'no use in the range' : `${r.per_day} used per day, ${r.cover} days of cover`;
      return `${Number(r.to_order)} ${mdText(r.item)} for ${mdText(r.garage)} (${Number(r.on_hand)} on hand, units short ${Number(r.shortfall)}, ${use})`;
    });
    facts.push(`Order ${listed(parts, lines)}.`);
  }
  const unassigned = Number(u!.unassigned);
  if (unassigned > 0) facts.push(`${count(unassigned, 'unit has', 'units have')} no garage; what they use and need is left out of this plan.`);
  return {
    facts,
    columns: ['Garage', 'Item', 'On hand', "Units' shortfall", 'Average daily use', 'Days of cover', 'Order quantity'],
    rows: rows.map((r) => [r.garage, r.item, Number(r.on_hand), Number(r.shortfall), r.per_day, r.cover ?? '', Number(r.to_order)]),
  };
};
