/**
 * The Dashboard in one statement (docs/product.md "Screens: Dashboard"). Stock status is derived
 * at read time from the item's minimum threshold by the rules of stock/rules.ts (docs/product.md
 * "Stock movements and statuses"). The threshold is read from
 * the stock row's copy (`item_threshold`, migration 0004), so the rows in alert come from a partial
 * index instead of a join over every stock row of the tenant.
 *
 * PostgreSQL builds the whole answer as JSON: one round trip, and no per-row work in Node.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DashboardResponse } from '../../../common/contracts/dashboard';
import { queryRows, type Db } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { inAlertSql, isCriticalSql, stockStatusSql } from '../stock/rules';

/** How many alerts per list and activity rows the dashboard returns (paged 5 at a time in the browser). */
export const DASHBOARD_LIST_LIMIT = 100;

/** ISO 8601 in UTC with milliseconds, as `Date.toISOString` writes it (the contract's format). */
const isoUtc = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The first rows in alert (critical first, then newest) of one kind of location, as a JSON array.
 * The inner query reads `*_inventory_alert_idx` in order and stops at the limit.
 */
function alerts(tenantId: string, location: 'unit' | 'garage'): SQL {
  const stock = location === 'unit' ? sql`unit_inventory` : sql`garage_inventory`;
  const place = location === 'unit' ? sql`units` : sql`garages`;
  const placeId = location === 'unit' ? sql`unit_id` : sql`garage_id`;
  return sql`coalesce((
    select json_agg(json_build_object(
             'id', s.id, 'item_name', i.name, 'location_name', p.name, 'location_type', ${location}::text,
             'alert_type', ${stockStatusSql(sql`s.quantity`, sql`s.item_threshold`)},
             'created_at', ${isoUtc(sql`s.updated_at`)})
           order by ${isCriticalSql(sql`s.quantity`)} desc, s.updated_at desc, s.id desc)
    from (
      select id, item_id, ${placeId} as place_id, quantity, item_threshold, updated_at from ${stock}
      where tenant_id = ${tenantId} and ${inAlertSql(sql`quantity`, sql`item_threshold`)}
      order by (${isCriticalSql(sql`quantity`)}) desc, updated_at desc, id desc
      limit ${DASHBOARD_LIST_LIMIT}
    ) s
    join items i on i.tenant_id = ${tenantId} and i.id = s.item_id
    join ${place} p on p.tenant_id = ${tenantId} and p.id = s.place_id), '[]'::json)`;
}

/** The newest ledger rows that changed a quantity, with item and location names, as a JSON array. */
function recentActivity(tenantId: string): SQL {
  return sql`coalesce((
    select json_agg(json_build_object(
             'id', l.id, 'item_name', coalesce(i.name, 'Deleted item'), 'quantity_change', l.quantity_change,
             'source_name', coalesce(u.name, g.name, 'Deleted location'), 'created_at', ${isoUtc(sql`l.created_at`)})
           order by l.created_at desc, l.id)
    from (
      select id, item_id, quantity_change, source_type, unit_id, garage_id, created_at from inventory_logs
      where tenant_id = ${tenantId} and quantity_change <> 0
      order by created_at desc, id
      limit ${DASHBOARD_LIST_LIMIT}
    ) l
    left join items i on i.tenant_id = ${tenantId} and i.id = l.item_id
    left join units u on l.source_type = 'unit' and u.tenant_id = ${tenantId} and u.id = l.unit_id
    left join garages g on l.source_type = 'garage' and g.tenant_id = ${tenantId} and g.id = l.garage_id), '[]'::json)`;
}

/** Reads stats, unit and garage alerts and recent activity of `tenantId`. */
export async function getDashboard(db: Db, tenantId: string): Promise<DashboardResponse> {
  return withTenant(db, tenantId, async (tx) => {
    const [row] = await queryRows<{ dashboard: DashboardResponse }>(tx, sql`
      select json_build_object(
        'stats', json_build_object(
          'total_units', (select count(*)::int from units where tenant_id = ${tenantId}),
          'total_items', (select count(*)::int from items where tenant_id = ${tenantId}),
          'low_stock_items', alert.low,
          'critical_items', alert.critical),
        'unit_alerts', ${alerts(tenantId, 'unit')},
        'garage_alerts', ${alerts(tenantId, 'garage')},
        'recent_activity', ${recentActivity(tenantId)}
      ) as dashboard
      from (
        select count(*) filter (where not ${isCriticalSql(sql`quantity`)})::int as low,
               count(*) filter (where ${isCriticalSql(sql`quantity`)})::int as critical
        from unit_inventory where tenant_id = ${tenantId} and ${inAlertSql(sql`quantity`, sql`item_threshold`)}
      ) alert`);
    return row!.dashboard;
  });
}
