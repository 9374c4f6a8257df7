/**
 * What Unit detail shows of a property's forecast (docs/product.md "Screens: Forecast"): the usage
 * per stay of each item, the line 'Next 7 days: 3 stays' with the items that would start a
 * check-in short, and whether the property has past stays enough to learn its own usage from.
 */
import { PRIOR_STAYS, type UnitForecastAnswer } from '../../../common/contracts/forecast';
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

/**
 * What the property's usage is learned from, when its own history is too short (fewer than
 * PRIOR_STAYS past stays in the learning window): 'No past stays to learn this property's usage
 * from yet: the forecast uses the company's usage.', '2 past stays to learn from: the forecast
 * leans on the company's usage until there are 4.'; null when it has enough, or when no item has
 * a usage to learn.
 */
export function historyText(forecast: Pick<UnitForecastAnswer, 'items'>): string | null {
  const learned = forecast.items.filter((item) => item.rate.basis === 'property' || item.rate.basis === 'company');
  if (learned.length === 0) return null;
  const stays = Math.max(...learned.map((item) => item.rate.stays));
  if (stays >= PRIOR_STAYS) return null;
  if (stays === 0) return "No past stays to learn this property's usage from yet: the forecast uses the company's usage.";
  return `${stays} past ${stays === 1 ? 'stay' : 'stays'} to learn from: the forecast leans on the company's usage until there are ${PRIOR_STAYS}.`;
}
