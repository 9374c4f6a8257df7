/**
 * How plans read on the Subscription screen (docs/product.md "Screens: Subscription"): prices per month or year
 * (per unit for Enterprise), limits ('Unlimited' from 999999), feature names and usage.
 */
import { UNLIMITED, type Feature, type LimitedResource, type Tier } from '../../../common/contracts/billing';

export type BillingInterval = 'month' | 'year';

/** Readable names of the plans' feature keys, in the order the cards list them. */
export const featureLabels: Record<Feature, string> = {
  cost_reports: 'Cost reports',
  ai_reports: 'AI report assistant',
  ai_scanner: 'AI photo scanner',
  listing_import: 'Listing import',
  priority_support: 'Priority support',
};

/**
 * The features a plan card lists: those the product has today.
 */
export const listedFeatures: readonly Feature[] = ['cost_reports', 'ai_reports', 'ai_scanner', 'listing_import', 'priority_support'];

const wholeDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const dollarsAndCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US');

/** A plan price: "$29", or "$4.50" when it has cents. */
export function formatPlanAmount(amount: number): string {
  return Number.isInteger(amount) ? wholeDollars.format(amount) : dollarsAndCents.format(amount);
}

/** The price of `tier` for `interval`, split so the amount can be shown larger than its period. */
export function planPrice(tier: Pick<Tier, 'price' | 'yearly_price' | 'per_unit'>, interval: BillingInterval): { amount: string; period: string } {
  const amount = formatPlanAmount(interval === 'year' ? tier.yearly_price : tier.price);
  return { amount, period: tier.per_unit ? `/unit/${interval}` : `/${interval}` };
}

/** True for a limit that means "no limit" (999999 or more). */
export function isUnlimited(limit: number): boolean {
  return limit >= UNLIMITED;
}

/**
 * A limit line of a tier card: 'Up to 50 units' or 'Unlimited units'; users always read
 * 'Up to N users' (docs/product.md "Screens: Subscription").
 */
export function limitText(resource: LimitedResource, limit: number): string {
  if (resource !== 'users' && isUnlimited(limit)) return `Unlimited ${resource}`;
  return `Up to ${count.format(limit)} ${resource}`;
}

/** The limit lines of a tier card: units, items, garages, users. */
export function tierLimits(tier: Tier): string[] {
  return [
    limitText('units', tier.max_units),
    limitText('items', tier.max_items),
    limitText('garages', tier.max_garages),
    limitText('users', tier.max_users),
  ];
}

/** What is used of a limit, e.g. '3 of 50', or '3 (Unlimited)'. */
export function usageText(used: number, limit: number): string {
  return isUnlimited(limit) ? `${count.format(used)} (Unlimited)` : `${count.format(used)} of ${count.format(limit)}`;
}

export type UsageLevel = 'ok' | 'near' | 'full';

/** How close `used` is to `limit`: full at the limit, near from 80 % of it. */
export function usageLevel(used: number, limit: number): UsageLevel {
  if (isUnlimited(limit)) return 'ok';
  if (used >= limit) return 'full';
  return used >= limit * 0.8 ? 'near' : 'ok';
}
