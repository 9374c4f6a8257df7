/**
 * The wording of the Forecast screen (docs/product.md "Screens: Forecast"): why an item would start
 * a check-in short, what the answer's emptiness means, and the garages whose pick lists to open.
 */
import type { ForecastAnswer, ItemForecast, PickListUnit, ShortUnitForecast } from '../../../common/contracts/forecast';
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

/**
 * The line under an item's name: '2 there now · about 3.5 used by the stays under way or arriving
 * in the next 7 days'. The number is the whole expected use of those stays (ItemForecast
 * `expected_use`), not the use of the days: a stay arriving on the last day counts every night.
 */
export function itemUseText(item: Pick<ItemForecast, 'quantity' | 'expected_use'>, horizonDays: number): string {
  return `${item.quantity} there now · about ${item.expected_use} used by the stays under way or arriving in the next ${horizonDays} days`;
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

/** 'And 4 more units run short.' when the list was cut; null when it shows them all. */
export function moreShortText(answer: Pick<ForecastAnswer, 'properties' | 'properties_short'>): string | null {
  const more = answer.properties_short - answer.properties.length;
  if (more <= 0) return null;
  return more === 1 ? 'And 1 more unit runs short.' : `And ${more} more units run short.`;
}

/** The garages of the listed properties, once each, in the order they first appear (most urgent first). */
export function garagesOf(properties: readonly ShortUnitForecast[]): { id: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const property of properties) {
    if (property.garage_id !== null && !seen.has(property.garage_id)) seen.set(property.garage_id, property.garage_name ?? 'Garage');
  }
  return [...seen].map(([id, name]) => ({ id, name }));
}

/** A chance (0–1) as whole percent, rounded down: a level is never shown as reached when it is not. */
const percentDown = (chance: number): number => Math.floor(chance * 100 + 1e-9);

/**
 * What a pick list's lines buy for a property (docs/product.md "Screens: Pick list"): '+6 pieces:
 * 95 % instead of 70 %' when they bring more than each stay's expected use would, with the chance
 * that no arrival finds an item short either way; '95 % sure no arrival runs short' when they do
 * not; null without an arrival in the horizon.
 */
export function serviceText(service: PickListUnit['service']): string | null {
  if (!service) return null;
  const extra = service.pieces - service.expected_pieces;
  if (extra <= 0) return `${percentDown(service.chance)} % sure no arrival runs short`;
  return `+${extra} ${extra === 1 ? 'piece' : 'pieces'}: ${percentDown(service.chance)} % instead of ${percentDown(service.expected_chance)} %`;
}

/** The sentence that says what the service level means. */
export function serviceLevelMeaning(level: number): string {
  return `Pick lists bring enough for a ${level} % chance that an arriving stay finds every item it needs.`;
}

/**
 * The Forecast screen's two sections (docs/product.md "Screens: Forecast"): `runsOut`, the
 * properties where some item runs out before a check-in (shortfall `runs_out`), and `belowMinimum`,
 * those whose items are only below their minimum at a check-in; each in the answer's order.
 */
export function forecastSections(properties: readonly ShortUnitForecast[]): { runsOut: ShortUnitForecast[]; belowMinimum: ShortUnitForecast[] } {
  const runsOut = properties.filter((p) => p.items.some((item) => item.shortfall?.kind === 'runs_out'));
  return { runsOut, belowMinimum: properties.filter((p) => !runsOut.includes(p)) };
}

/** What to bring to a property, on one line: 'Coffee Pods: bring 83 · Bath Towel: bring 6' (its items in the answer's order). */
export function bringLine(property: Pick<ShortUnitForecast, 'items'>): string {
  return property.items.map((item) => (item.bring > 0 ? `${item.item_name}: bring ${item.bring}` : item.item_name)).join(' · ');
}
