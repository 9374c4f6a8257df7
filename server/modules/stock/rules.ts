/**
 * The stock rules in SQL, one home for each (docs/product.md "Stock movements and statuses"):
 * the status of a stock row, below minimum, usage, the garage chart's buckets, the ledger invariant.
 *
 * The status of a stock row is defined once, by the SQL functions `stock_is_critical`,
 * `stock_in_alert` and `stock_status` (migration 0015), which the helpers below call and the
 * triggers that keep the Dashboard's counts use (docs/decisions/021-dashboard-alert-counts.md).
 * PostgreSQL inlines them into the calling query, so their predicates still match the partial
 * alert indexes (`quantity <= item_threshold`, ordered by `quantity <= 0`, migration 0004).
 * `stockStatus` of common/contracts/stock.ts is the TypeScript form of the same rule
 * (rules.test.ts checks they agree on every boundary).
 */
import { sql, type SQL } from 'drizzle-orm';

/** SQL: true when a row of `quantity` is critical. */
export const isCriticalSql = (quantity: SQL): SQL => sql`stock_is_critical(${quantity})`;

/** SQL: true when a row is in alert, low or critical (what the dashboard lists and counts). */
export const inAlertSql = (quantity: SQL, threshold: SQL): SQL => sql`stock_in_alert(${quantity}, ${threshold})`;

/** SQL: the status of a row, 'critical' | 'low' | 'sufficient', as `stockStatus` derives it. */
export const stockStatusSql = (quantity: SQL, threshold: SQL): SQL => sql`stock_status(${quantity}, ${threshold})`;

/**
 * SQL: true when a stock of `quantity` pieces is below the item's `minimum` threshold (pieces),
 * `quantity < minimum` (docs/product.md "Stock movements and statuses", "Restock to minimum";
 * "Forecast", **below minimum**): what Restock to minimum fills, narrower than in alert (a row at
 * exactly its minimum is low, not below it). The rule's SQL home is the function
 * `stock_below_minimum` (migration 0025), in double precision so that it takes whole stock
 * columns and the forecast's projected (fractional) stock alike, exactly as JavaScript numbers
 * compare; PostgreSQL inlines it into the calling query. `isBelowMinimum` of
 * common/contracts/stock.ts is its TypeScript form (rules.test.ts checks they agree).
 */
export const belowMinimumSql = (quantity: SQL, minimum: SQL): SQL => sql`stock_below_minimum(${quantity}, ${minimum})`;

/**
 * SQL: true when a ledger row aliased `l` is usage (docs/product.md "Reports"): stock that left a
 * unit by consumption or by a count that found less, and was not undone since. What every report
 * sums as "used". The rule's SQL home is the function `ledger_is_usage` (migration 0016), which the
 * daily totals' triggers call too.
 */
export const isUsageSql: SQL = sql`ledger_is_usage(l.source_type, l.quantity_change, l.type, l.reversed_at)`;

/**
 * The garage status chart's fixed buckets (docs/product.md "Screens: Reports"): a garage row of
 * more than GARAGE_SUFFICIENT_ABOVE is sufficient, more than GARAGE_LOW_ABOVE low, else critical.
 */
export const GARAGE_SUFFICIENT_ABOVE = 20;
export const GARAGE_LOW_ABOVE = 10;

/** SQL: the garage chart bucket of a garage row, 'critical' | 'low' | 'sufficient'. */
export const garageBucketSql = (quantity: SQL): SQL =>
  sql`case when ${quantity} > ${sql.raw(String(GARAGE_SUFFICIENT_ABOVE))} then 'sufficient' when ${quantity} > ${sql.raw(String(GARAGE_LOW_ABOVE))} then 'low' else 'critical' end`;

/**
 * SQL: the ledger invariant's breaches (docs/product.md "Stock movements and statuses"): every
 * stock row, of every tenant the caller can see, whose quantity is negative or differs from the
 * sum of its ledger rows. Columns: kind ('garage' | 'unit'), location_id, item_id, quantity,
 * ledger. No rows when the invariant holds; tests and the benchmark check it after their loads.
 */
export const ledgerMismatchesSql: SQL = sql`
  select s.kind, s.location_id, s.item_id, s.quantity, coalesce(l.total, 0) as ledger
  from (
    select 'garage' as kind, garage_id as location_id, item_id, quantity, tenant_id from garage_inventory
    union all
    select 'unit', unit_id, item_id, quantity, tenant_id from unit_inventory
  ) s
  left join (
    select tenant_id, source_type, coalesce(unit_id, garage_id) as location_id, item_id, sum(quantity_change)::bigint as total
    from inventory_logs group by 1, 2, 3, 4
  ) l on l.tenant_id = s.tenant_id and l.source_type = s.kind and l.location_id = s.location_id and l.item_id = s.item_id
  where s.quantity <> coalesce(l.total, 0) or s.quantity < 0`;
