/**
 * The wording of the dashboard card "Runs out before a check-in" (docs/product.md "Screens:
 * Forecast"): per property its day and its items, and the count.
 */
import type { ForecastSummary } from '../../../common/contracts/forecast-summary';
import { formatCalendarDay } from '../../lib/format';

type SummaryEntry = ForecastSummary['first'][number];

/** 'Bath Towel, Coffee Pods and 2 more': the items named, and how many more are short. */
export function summaryItems(entry: SummaryEntry): string {
  const more = entry.items_short - entry.item_names.length;
  return more > 0 ? `${entry.item_names.join(', ')} and ${more} more` : entry.item_names.join(', ');
}

/** 'before Fri, Nov 27': the first check-in that would start short (a calendar day, no zone). */
export function summaryDay(entry: SummaryEntry): string {
  return `before ${formatCalendarDay(entry.arrival_date)}`;
}

/** '1 unit in the next 7 days', '3 units in the next 7 days'. */
export function summaryCount(summary: Pick<ForecastSummary, 'properties_short' | 'horizon_days'>): string {
  const n = summary.properties_short;
  return `${n} ${n === 1 ? 'unit' : 'units'} in the next ${summary.horizon_days} days`;
}

/** The card's link to /forecast: 'See all 13 units' when more than one is short, else 'Open the forecast'. */
export function seeAllText(propertiesShort: number): string {
  return propertiesShort > 1 ? `See all ${propertiesShort} units` : 'Open the forecast';
}
