/**
 * The short account of a unit's stock that its card on the units list shows (docs/product.md
 * "Screens: Units"): how many rows are critical and low, and the few that need stock most. The
 * whole list is on the unit's page.
 */
import type { UnitStockRow } from '../../../common/contracts/stock';

/** How many rows of each alert status, and the rows that need stock most, worst first. */
export interface UnitStockSummary {
  total: number;
  critical: number;
  low: number;
  /** At most `worstCount` rows below sufficient: critical first, then the emptiest against its minimum. */
  worst: UnitStockRow[];
}

const statusRank = { critical: 0, low: 1, sufficient: 2 } as const;

/** How full a row is against its minimum: 0 when empty; rows without a minimum count as full. */
function fill(row: UnitStockRow): number {
  return row.minimum_threshold > 0 ? row.quantity / row.minimum_threshold : 1;
}

/** Summarises `inventory`, keeping its `worstCount` neediest rows (3 by default). */
export function summarizeUnitStock(inventory: readonly UnitStockRow[], worstCount = 3): UnitStockSummary {
  const alerts = inventory.filter((row) => row.status !== 'sufficient');
  const worst = alerts
    .toSorted((a, b) => statusRank[a.status] - statusRank[b.status] || fill(a) - fill(b) || a.item_name.localeCompare(b.item_name))
    .slice(0, worstCount);
  const critical = alerts.filter((row) => row.status === 'critical').length;
  return { total: inventory.length, critical, low: alerts.length - critical, worst };
}
