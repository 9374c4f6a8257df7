/**
 * The Dashboard in one statement (docs/product.md "Screens: Dashboard"), run by the SQL function
 * `tenant_dashboard` (migration 0015, docs/decisions/021-dashboard-alert-counts.md): PostgreSQL
 * builds the whole answer as JSON in one round trip.
 *
 * - The counts of unit stock rows low and critical are kept current by the statements that change
 *   stock (triggers on unit_inventory, table unit_alert_counts), so a read does not count the rows
 *   in alert.
 * - The alert lists read the partial indexes `*_inventory_alert_idx` (migration 0004) in the lists'
 *   order and stop at DASHBOARD_LIST_LIMIT; the status of each row is the one rule of
 *   stock/rules.ts (docs/product.md "Stock movements and statuses").
 * - PL/pgSQL keeps the statement's plan for the connection, so a read is not planned again.
 * - The authors' names are read afterwards by the server's login, one query for all of them.
 */
import { sql } from 'drizzle-orm';
import type { DashboardResponse } from '../../../common/contracts/dashboard';
import { queryRows, type Db } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { displayName, peopleByIds } from '../auth/people';

/** How many alerts per list and activity rows the dashboard returns (paged 5 at a time in the browser). */
export const DASHBOARD_LIST_LIMIT = 100;

/** An activity row as the SQL function answers it: its author by id, and whether they are still a member. */
type ActivityRow = Omit<DashboardResponse['recent_activity'][number], 'by'> & { user_id: string | null; by_member: boolean; api_key: string | null };

/** How a change made with an API key names its author: the key, by its name (docs/decisions/049-api-keys.md). */
export function apiKeyAuthor(name: string): string {
  return `API key “${name}”`;
}

/**
 * Reads stats, unit and garage alerts and recent activity of `tenantId`, in the shape of
 * `dashboardResponse` (common/contracts/dashboard.ts; times are ISO 8601 UTC with milliseconds).
 * Each activity row's author is named after the transaction (server/modules/auth/people.ts): a
 * member by name, someone who left the company as 'a former member', a change made with an API key
 * by the key ('API key “PMS sync”'), a change no person made by no one.
 */
export async function getDashboard(db: Db, tenantId: string): Promise<DashboardResponse> {
  const dashboard = await withTenant(db, tenantId, async (tx) => {
    const [row] = await queryRows<{ dashboard: Omit<DashboardResponse, 'recent_activity'> & { recent_activity: ActivityRow[] } }>(
      tx,
      sql`select tenant_dashboard(${tenantId}::uuid, ${DASHBOARD_LIST_LIMIT}::int) as dashboard`,
    );
    return row!.dashboard;
  });
  const people = await peopleByIds(db, dashboard.recent_activity.flatMap((a) => (a.user_id && a.by_member && a.api_key === null ? [a.user_id] : [])));
  return {
    ...dashboard,
    recent_activity: dashboard.recent_activity.map(({ user_id, by_member, api_key, ...activity }) => {
      if (api_key !== null) return { ...activity, by: apiKeyAuthor(api_key) };
      const person = user_id && by_member ? people.get(user_id) : undefined;
      return { ...activity, by: user_id === null ? null : person ? displayName(person) : 'a former member' };
    }),
  };
}
