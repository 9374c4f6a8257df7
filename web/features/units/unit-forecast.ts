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

/** Items named by the forecast line before the rest are counted. */
const NAMED_SHORT_ITEMS = 3;

/**
 * 'Coffee Pods would start a check-in short', 'Coffee Pods and Bath Towel would…', 'Coffee Pods,
 * Bath Towel, Soap and 2 more would…' (the first in the forecast's order), or null when none would.
 */
export function shortItemsText(forecast: Pick<UnitForecastAnswer, 'items'>): string | null {
  const names = forecast.items.filter((item) => item.shortfall !== null).map((item) => item.item_name);
  if (names.length === 0) return null;
  const more = names.length - NAMED_SHORT_ITEMS;
  const listed =
    more > 0
      ? `${names.slice(0, NAMED_SHORT_ITEMS).join(', ')} and ${more} more`
      : names.length === 1
        ? names[0]!
        : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${listed} would start a check-in short`;
}
