/**
 * Critical Supply Alerts (report type `critical`, docs/product.md "Constants and limits"): every
 * unit and garage stock row that is low or critical now (derived status, docs/product.md
 * "Stock movements and statuses": quantity <= 0 critical, <= the item's minimum_threshold low),
 * with, for a unit row, the stock of that item in the unit's assigned garage, which is what a
 * restock can draw on. The range does not apply: this is current stock. Rows: critical first, then
 * the largest shortfall below the minimum, then by location and item.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../db/client';
import { count, LISTED, mdText, type ReportBuilder } from './shared';
import { stockStatusSql } from '../../stock/rules';

interface AlertRow {
  status: 'low' | 'critical';
  location_type: 'unit' | 'garage';
  location: string;
  item: string;
  quantity: number;
  minimum: number;
  /** The unit's garage; null for garage rows and for units without a garage. */
  garage: string | null;
  /** That garage's stock of the item; null when there is no garage. */
  available: number | null;
}

/** The fact of one alert row (markdown). */
function sentence(r: AlertRow): string {
  const head = `${r.status === 'critical' ? 'Critical' : 'Low'}: ${mdText(r.item)} at ${mdText(r.location)}${r.location_type === 'garage' ? ' (garage)' : ''} has ${r.quantity} (minimum ${r.minimum})`;
  if (r.location_type === 'garage') return `${head}.`;
  if (r.garage === null) return `${head}; the unit has no garage to restock from.`;
  if (!r.available) return `${head}; ${mdText(r.garage)} has none to restock it.`;
  return `${head}; ${mdText(r.garage)} has ${r.available} to restock it.`;
}

export const criticalReport: ReportBuilder = async (tx, tenantId, range) => {
  const alerts = sql`
    select * from (
      select ${stockStatusSql(sql`s.quantity`, sql`i.minimum_threshold`)} as status, 'unit' as location_type, u.name as location,
        i.name as item, s.quantity, i.minimum_threshold as minimum, g.name as garage,
        case when u.garage_id is not null then coalesce(gs.quantity, 0) end as available
      from unit_inventory s
      join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
      join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
      left join garages g on g.tenant_id = u.tenant_id and g.id = u.garage_id
      left join garage_inventory gs on gs.tenant_id = u.tenant_id and gs.garage_id = u.garage_id and gs.item_id = s.item_id
      where s.tenant_id = ${tenantId}
      union all
      select ${stockStatusSql(sql`s.quantity`, sql`i.minimum_threshold`)}, 'garage', g.name, i.name, s.quantity, i.minimum_threshold, null, null
      from garage_inventory s
      join garages g on g.tenant_id = s.tenant_id and g.id = s.garage_id
      join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
      where s.tenant_id = ${tenantId}
    ) a where status <> 'sufficient'`;

  // Rows and the facts' examples come from the same order, each with its own limit.
  const pick = (n: number) =>
    queryRows<AlertRow>(
      tx,
      sql`select status, location_type, location, item, quantity::int, minimum::int, garage, available::int
          from (${alerts}) a
          order by status = 'critical' desc, minimum - quantity desc, location, item limit ${n}`,
    );
  const rows = await pick(range.limit);
  const examples = await pick(LISTED);
  const [t] = await queryRows<{ critical: number; low: number; units: number; garages: number; stranded: number }>(
    tx,
    sql`select count(*) filter (where status = 'critical')::int as critical, count(*) filter (where status = 'low')::int as low,
          count(*) filter (where location_type = 'unit')::int as units, count(*) filter (where location_type = 'garage')::int as garages,
          count(*) filter (where location_type = 'unit' and coalesce(available, 0) = 0)::int as stranded
        from (${alerts}) a`,
  );

  const critical = Number(t!.critical);
  const low = Number(t!.low);
  const facts =
    critical + low === 0
      ? ['No unit or garage stock row is low or critical now.']
      : [
          `${count(critical + low, 'stock row')} low or critical now: ${critical} critical and ${low} low (${Number(t!.units)} at units, ${Number(t!.garages)} at garages).`,
          "Rule: a row is critical at quantity 0 and low at or below its item's minimum.",
          ...examples.map(sentence),
        ];
  const stranded = Number(t!.stranded);
  if (stranded > 0) {
    facts.push(`${count(stranded, 'unit row')} cannot be restocked from the unit's garage (none in stock there, or no garage assigned).`);
  }
  return {
    facts,
    columns: ['Status', 'Location type', 'Location', 'Item', 'Quantity', 'Minimum', 'Restock from', 'Available in garage'],
    rows: rows.map((r) => [
      r.status,
      r.location_type,
      r.location,
      r.item,
      Number(r.quantity),
      Number(r.minimum),
      r.garage ?? '',
      r.available === null ? '' : Number(r.available),
    ]),
  };
};
