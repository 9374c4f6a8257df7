/**
 * What a property's usage is learned from, when its own history is too short (docs/product.md
 * "Forecast", usage per stay; "Screens: Forecast"): the one wording of Unit detail and of the
 * Forecast screen's cards.
 */
import { PRIOR_STAYS } from '../../common/contracts/forecast';

/**
 * The line for a property with `pastStays` past stays to learn its usage from (whole stays, as the
 * answers' `past_stays` or the rates' `stays` count them): 'No past stays to learn this
 * property's usage from yet: the forecast uses the company's usage.', '2 past stays to learn from:
 * the forecast leans on the company's usage until there are 4.'; null from PRIOR_STAYS on, and
 * for null (no item's usage is learned from stays).
 */
export function usageHistoryText(pastStays: number | null): string | null {
  if (pastStays === null || pastStays >= PRIOR_STAYS) return null;
  if (pastStays === 0) return "No past stays to learn this unit's usage from yet: the forecast uses the company's usage.";
  return `${pastStays} past ${pastStays === 1 ? 'stay' : 'stays'} to learn from: the forecast leans on the company's usage until there are ${PRIOR_STAYS}.`;
}
