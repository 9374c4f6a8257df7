/**
 * Which of a property's stock rows need stock, and why, for Unit detail's "Needs stock" view and
 * its search (docs/product.md "Screens: Unit detail"): a row needs stock when it is below its
 * item's minimum threshold, or when the forecast says it would start a check-in short in the next
 * days (docs/product.md "Forecast"). Rows needing stock come first, in the list's order otherwise.
 */
import { isBelowMinimum, type UnitStockRow } from '../../../common/contracts/stock';
import type { UnitForecastAnswer } from '../../../common/contracts/forecast';
import { formatCalendarDay } from '../../lib/format';

/** Why one row needs stock. */
export interface StockNeed {
  /** Pieces missing to reach the minimum threshold (0 when at or above it). */
  belowMinimumBy: number;
  /** The first check-in that would start short and the pieces to bring before it, when the forecast says so. */
  shortBefore: { arrivalDate: string; bring: number } | null;
}

/**
 * The rows that need stock, by item id. `forecast` may be missing (not loaded yet, or failed):
 * then only the minimum threshold counts.
 */
export function stockNeeds(rows: readonly UnitStockRow[], forecast: Pick<UnitForecastAnswer, 'items'> | undefined): Map<string, StockNeed> {
  const short = new Map((forecast?.items ?? []).flatMap((item) => (item.shortfall ? [[item.item_id, { arrivalDate: item.shortfall.arrival_date, bring: item.bring }]] : [])));
  const needs = new Map<string, StockNeed>();
  for (const row of rows) {
    const below = isBelowMinimum(row.quantity, row.minimum_threshold);
    const shortBefore = short.get(row.item_id) ?? null;
    if (below || shortBefore) needs.set(row.item_id, { belowMinimumBy: below ? row.minimum_threshold - row.quantity : 0, shortBefore });
  }
  return needs;
}

/** 'Below minimum by 3 · Bring 4 before Fri, Nov 27': what a row lacks, for its line in the list. */
export function needText(need: StockNeed): string {
  const parts: string[] = [];
  if (need.belowMinimumBy > 0) parts.push(`Below minimum by ${need.belowMinimumBy}`);
  if (need.shortBefore) {
    const day = formatCalendarDay(need.shortBefore.arrivalDate);
    parts.push(need.shortBefore.bring > 0 ? `Bring ${need.shortBefore.bring} before ${day}` : `Short before ${day}`);
  }
  return parts.join(' · ');
}

/**
 * The rows to show: those whose item name contains `query` (trimmed, any case), only those of
 * `needing` (the item ids needing stock) when `onlyNeeding`, those first and otherwise in the
 * given order. The screen passes the ids that needed stock when the list was last sorted, so that
 * a row restocked or used meanwhile stays where the person's thumb is.
 */
export function shownRows(rows: readonly UnitStockRow[], needing: { has: (itemId: string) => boolean }, query: string, onlyNeeding: boolean): UnitStockRow[] {
  const needle = query.trim().toLocaleLowerCase();
  const matching = rows.filter((row) => (!needle || row.item_name.toLocaleLowerCase().includes(needle)) && (!onlyNeeding || needing.has(row.item_id)));
  return [...matching.filter((row) => needing.has(row.item_id)), ...matching.filter((row) => !needing.has(row.item_id))];
}
