/**
 * The wording of the Forecast screen (docs/product.md "Screens: Forecast"): why an item would start
 * a check-in short, what the answer's emptiness means, and the garages whose pick lists to open.
 */
import type { ForecastAnswer, ItemForecast, ShortUnitForecast } from '../../../common/contracts/forecast';
import { formatCalendarDay } from '../../lib/format';

/**
 * Why the item is on the list, in words: 'Runs out before the check-in on Fri, Nov 27' when the
 * stock before that arrival does not cover the stay, 'Below minimum at the check-in on Fri, Nov
 * 27' when it covers it but falls under the item's minimum; null without a shortfall.
 */
export function shortfallText(item: Pick<ItemForecast, 'shortfall'>): string | null {
  if (!item.shortfall) return null;
  const day = formatCalendarDay(item.shortfall.arrival_date);
  return item.shortfall.kind === 'runs_out' ? `Runs out before the check-in on ${day}` : `Below minimum at the check-in on ${day}`;
}

/** The line under an item's name: '2 there now · about 3.5 used in the next 7 days'. */
export function itemUseText(item: Pick<ItemForecast, 'quantity' | 'expected_use'>, horizonDays: number): string {
  return `${item.quantity} there now · about ${item.expected_use} used in the next ${horizonDays} days`;
}

/**
 * What the screen shows instead of the list: 'no-stays' when no property has a stay in the
 * horizon (the stays come from the Hostaway import or a calendar link), 'none-short' when stays
 * exist and none would start short; null when there is a list.
 */
export function forecastEmptyState(answer: Pick<ForecastAnswer, 'properties' | 'properties_with_stays'>): 'no-stays' | 'none-short' | null {
  if (answer.properties.length > 0) return null;
  return answer.properties_with_stays === 0 ? 'no-stays' : 'none-short';
}

/** 'And 4 more properties run short.' when the list was cut; null when it shows them all. */
export function moreShortText(answer: Pick<ForecastAnswer, 'properties' | 'properties_short'>): string | null {
  const more = answer.properties_short - answer.properties.length;
  if (more <= 0) return null;
  return more === 1 ? 'And 1 more property runs short.' : `And ${more} more properties run short.`;
}

/** The garages of the listed properties, once each, in the order they first appear (most urgent first). */
export function garagesOf(properties: readonly ShortUnitForecast[]): { id: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const property of properties) {
    if (property.garage_id !== null && !seen.has(property.garage_id)) seen.set(property.garage_id, property.garage_name ?? 'Garage');
  }
  return [...seen].map(([id, name]) => ({ id, name }));
}
