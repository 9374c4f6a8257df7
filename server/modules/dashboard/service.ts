/**
 * The Dashboard in one query round (SPEC.md "Dashboard", §7 fetch_dashboard_stats and
 * fetch_dashboard_logs_alerts). Stock status is derived at read time from the item's minimum
 * threshold (DESIGN.md §4): quantity <= 0 critical, <= threshold low.
 */
import { sql } from 'drizzle-orm';
import type { DashboardAlert, DashboardLog, DashboardResponse } from '../../../common/contracts/dashboard';
import { queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';

/** How many alerts per list and activity rows the dashboard returns (paged 5 at a time in the browser). */
export const DASHBOARD_LIST_LIMIT = 100;

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

function toAlert(r: Row, location_type: 'unit' | 'garage'): DashboardAlert {
  return {
    id: String(r.id),
    item_name: String(r.item_name),
    alert_type: r.alert_type === 'critical' ? 'critical' : 'low',
    location_name: String(r.location_name),
    location_type,
    created_at: iso(r.created_at),
  };
}

async function alerts(tx: Tx, tenantId: string, location: 'unit' | 'garage'): Promise<DashboardAlert[]> {
  const stock = location === 'unit' ? sql`unit_inventory` : sql`garage_inventory`;
  const place = location === 'unit' ? sql`units` : sql`garages`;
  const placeId = location === 'unit' ? sql`s.unit_id` : sql`s.garage_id`;
  const rows = await queryRows(tx, sql`
    select s.id, i.name as item_name, p.name as location_name, s.updated_at as created_at,
           case when s.quantity <= 0 then 'critical' else 'low' end as alert_type
    from ${stock} s
    join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
    join ${place} p on p.tenant_id = s.tenant_id and p.id = ${placeId}
    where s.tenant_id = ${tenantId} and s.quantity <= i.minimum_threshold
    order by (s.quantity <= 0) desc, s.updated_at desc, s.id
    limit ${DASHBOARD_LIST_LIMIT}`);
  return rows.map((r) => toAlert(r, location));
}

/** Reads stats, unit and garage alerts and recent activity of `tenantId`. */
export async function getDashboard(db: Db, tenantId: string): Promise<DashboardResponse> {
  return withTenant(db, tenantId, async (tx) => {
    const statRows = await queryRows(tx, sql`
      select
        (select count(*)::int from units where tenant_id = ${tenantId}) as total_units,
        (select count(*)::int from items where tenant_id = ${tenantId}) as total_items,
        count(*) filter (where s.quantity > 0 and s.quantity <= i.minimum_threshold)::int as low_stock_items,
        count(*) filter (where s.quantity <= 0)::int as critical_items
      from unit_inventory s
      join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
      where s.tenant_id = ${tenantId}`);
    const stats = statRows[0]!;
    const logRows = await queryRows(tx, sql`
      select l.id, coalesce(i.name, 'Deleted item') as item_name, l.quantity_change,
             coalesce(u.name, g.name, 'Deleted location') as source_name, l.created_at
      from inventory_logs l
      left join items i on i.tenant_id = l.tenant_id and i.id = l.item_id
      left join units u on l.source_type = 'unit' and u.tenant_id = l.tenant_id and u.id = l.unit_id
      left join garages g on l.source_type = 'garage' and g.tenant_id = l.tenant_id and g.id = l.garage_id
      where l.tenant_id = ${tenantId} and l.quantity_change <> 0
      order by l.created_at desc, l.id
      limit ${DASHBOARD_LIST_LIMIT}`);
    const recent_activity: DashboardLog[] = logRows.map((r) => ({
      id: String(r.id),
      item_name: String(r.item_name),
      quantity_change: Number(r.quantity_change),
      source_name: String(r.source_name),
      created_at: iso(r.created_at),
    }));
    return {
      stats: {
        total_units: Number(stats.total_units),
        total_items: Number(stats.total_items),
        low_stock_items: Number(stats.low_stock_items),
        critical_items: Number(stats.critical_items),
      },
      unit_alerts: await alerts(tx, tenantId, 'unit'),
      garage_alerts: await alerts(tx, tenantId, 'garage'),
      recent_activity,
    };
  });
}
