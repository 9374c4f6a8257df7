/**
 * The wording of the dashboard card "Runs out before a check-in" (docs/product.md "Screens:
 * Forecast"): one line per property, and the count.
 */
import type { ForecastSummary } from '../../../common/contracts/forecast';
import { formatCalendarDay } from '../../lib/format';

/** 'Bath Towel, Coffee Pods and 2 more before Fri, Nov 27' (the property's name is the link before it). */
export function summaryLine(entry: ForecastSummary['first'][number]): string {
  const more = entry.items_short - entry.item_names.length;
  const items = more > 0 ? `${entry.item_names.join(', ')} and ${more} more` : entry.item_names.join(', ');
  return `${items} before ${formatCalendarDay(entry.arrival_date)}`;
}

/** '1 property in the next 7 days', '3 properties in the next 7 days'. */
export function summaryCount(summary: Pick<ForecastSummary, 'properties_short' | 'horizon_days'>): string {
  const n = summary.properties_short;
  return `${n} ${n === 1 ? 'property' : 'properties'} in the next ${summary.horizon_days} days`;
}
