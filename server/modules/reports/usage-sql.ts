/**
 * The one definition of usage (DESIGN.md §4), shared by every report: decreases of a unit's
 * stock that are not transfers — `consumption` and negative `count` rows at units — costed at
 * the ledger row's unit cost. Matches the partial index inventory_logs_usage_idx.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * SQL for the usage rows of `tenantId` in [start, end): columns unit_id, item_id, used (> 0),
 * cost (numeric dollars), created_at. Use as a CTE or subquery.
 */
export function usageRows(tenantId: string, start: Date, end: Date): SQL {
  return sql`
    select l.unit_id, l.item_id, -l.quantity_change as used, (-l.quantity_change) * l.unit_cost as cost, l.created_at
    from inventory_logs l
    where l.tenant_id = ${tenantId} and l.source_type = 'unit' and l.quantity_change < 0
      and l.type in ('consumption', 'count')
      and l.created_at >= ${start.toISOString()}::timestamptz and l.created_at < ${end.toISOString()}::timestamptz`;
}

/** Dollars as returned by SQL numeric (a string) -> a number rounded to cents. */
export const dollars = (v: unknown): number => Math.round(Number(v ?? 0) * 100) / 100;
