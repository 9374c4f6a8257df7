/**
 * GET /api/dashboard — everything the Dashboard shows, in one request (docs/product.md
 * "Screens: Dashboard"; dashboard stats, movements and alerts in "Entities"). Paging (5 per page)
 * happens in the browser. Written with `zod/mini`, as the dashboard's first answers are
 * (common/contracts/session.ts, decision 016).
 */
import * as z from 'zod/mini';

export const dashboardStats = z.object({
  total_units: z.int(),
  total_items: z.int(),
  low_stock_items: z.int(),
  critical_items: z.int(),
});

export const dashboardAlert = z.object({
  id: z.string(),
  item_name: z.string(),
  alert_type: z.enum(['critical', 'low']),
  location_name: z.string(),
  location_type: z.enum(['unit', 'garage']),
  /** ISO 8601 UTC: when the stock row last changed. */
  created_at: z.string(),
});

/** A movement of the ledger as 'Recent Activity' shows it. */
export const dashboardMovement = z.object({
  id: z.string(),
  item_name: z.string(),
  quantity_change: z.int(),
  source_name: z.string(),
  /** Who made the change: a member's name or email, 'a former member', an API key ('API key “PMS sync”'), or null when no person did. */
  by: z.nullable(z.string()),
  /** ISO 8601 UTC. */
  created_at: z.string(),
});

export const dashboardResponse = z.object({
  stats: dashboardStats,
  unit_alerts: z.array(dashboardAlert),
  garage_alerts: z.array(dashboardAlert),
  recent_activity: z.array(dashboardMovement),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
export type DashboardAlert = z.infer<typeof dashboardAlert>;
export type DashboardMovement = z.infer<typeof dashboardMovement>;
