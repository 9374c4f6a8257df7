/**
 * What Unit detail shows of a property's forecast (docs/product.md "Screens: Forecast"): the usage
 * per stay of each item, the line 'Next 7 days: 3 stays' with the items that would start a
 * check-in short, and how many past stays the property's usage is learned from.
 */
import type { UnitForecastAnswer } from '../../../common/contracts/forecast';
import { formatPerStay } from '../../lib/format';

/** Item id -> 'about 2.1 per stay', for the items whose usage is known (learned or a default; none when basis is 'none'). */
export function perStayByItem(forecast: Pick<UnitForecastAnswer, 'items'>): Map<string, string> {
  return new Map(forecast.items.filter((item) => item.rate.basis !== 'none').map((item) => [item.item_id, formatPerStay(item.rate.per_stay)]));
}

/** 'Next 7 days: 1 stay', 'Next 7 days: no stays'. */
export function staysText(forecast: Pick<UnitForecastAnswer, 'stays' | 'horizon_days'>): string {
  const n = forecast.stays.length;
  return `Next ${forecast.horizon_days} days: ${n === 0 ? 'no stays' : `${n} ${n === 1 ? 'stay' : 'stays'}`}`;
}

/** '2 items would start a check-in short', or null when none would. */
export function shortItemsText(forecast: Pick<UnitForecastAnswer, 'items'>): string | null {
  const n = forecast.items.filter((item) => item.shortfall !== null).length;
  if (n === 0) return null;
  return `${n} ${n === 1 ? 'item' : 'items'} would start a check-in short`;
}
