/**
 * The Dashboard in one statement (docs/product.md "Screens: Dashboard"), run by the SQL function
 * `tenant_dashboard` (migration 0015, docs/decisions/021-dashboard-alert-counts.md): PostgreSQL
 * builds the whole answer as JSON, in one round trip and with no per-row work in Node.
 *
 * - The counts of unit stock rows low and critical are kept current by the statements that change
 *   stock (triggers on unit_inventory, table unit_alert_counts), so a read does not count the rows
 *   in alert.
 * - The alert lists read the partial indexes `*_inventory_alert_idx` (migration 0004) in the lists'
 *   order and stop at DASHBOARD_LIST_LIMIT; the status of each row is the one rule of
 *   stock/rules.ts (docs/product.md "Stock movements and statuses").
 * - PL/pgSQL keeps the statement's plan for the connection, so a read is not planned again.
 */
import { sql } from 'drizzle-orm';
import type { DashboardResponse } from '../../../common/contracts/dashboard';
import { queryRows, type Db } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';

/** How many alerts per list and activity rows the dashboard returns (paged 5 at a time in the browser). */
export const DASHBOARD_LIST_LIMIT = 100;

/**
 * Reads stats, unit and garage alerts and recent activity of `tenantId`, in the shape of
 * `dashboardResponse` (common/contracts/dashboard.ts; times are ISO 8601 UTC with milliseconds).
 */
export async function getDashboard(db: Db, tenantId: string): Promise<DashboardResponse> {
  return withTenant(db, tenantId, async (tx) => {
    const [row] = await queryRows<{ dashboard: DashboardResponse }>(
      tx,
      sql`select tenant_dashboard(${tenantId}::uuid, ${DASHBOARD_LIST_LIMIT}::int) as dashboard`,
    );
    return row!.dashboard;
  });
}
