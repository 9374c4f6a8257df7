/**
 * Plans and billing contracts (docs/product.md "Screens: Subscription", "Entities", "Server rules"
 * and "Plans, trial and limits").
 * Prices are dollars; Enterprise (`per_unit`) is priced per unit. A limit >= 999999 is unlimited.
 */
import { z } from 'zod';

export const UNLIMITED = 999999;

export const features = ['cost_reports', 'ai_reports', 'ai_scanner', 'listing_import', 'priority_support'] as const;
export type Feature = (typeof features)[number];

export const limitedResources = ['units', 'items', 'garages', 'users'] as const;
export type LimitedResource = (typeof limitedResources)[number];

/** GET /api/subscription/tiers — ordered by price, Enterprise last. */
export const tier = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Dollars per month (per unit when per_unit). */
  price: z.number(),
  /** Dollars per year (per unit when per_unit). */
  yearly_price: z.number(),
  per_unit: z.boolean(),
  max_units: z.number().int(),
  max_items: z.number().int(),
  max_garages: z.number().int(),
  max_users: z.number().int(),
  features: z.record(z.string(), z.boolean()),
});
export type Tier = z.infer<typeof tier>;

/**
 * GET /api/subscription/usage — the tenant's resource counts (docs/product.md "Server rules"):
 * `remaining` is the allowance left per resource (0 or less blocks creating more); `limits` and
 * `used` explain it.
 */
export const usage = z.object({
  /** The plan whose limits apply: the subscribed tier, or the trial's. */
  tier_name: z.string(),
  limits: z.record(z.enum(limitedResources), z.number().int()),
  used: z.record(z.enum(limitedResources), z.number().int()),
  remaining: z.record(z.enum(limitedResources), z.number().int()),
});
export type Usage = z.infer<typeof usage>;

export const billingInterval = z.enum(['month', 'year']);

/** POST /api/subscription/checkout — the tier by id and the interval; prices are looked up on the server. */
export const checkoutBody = z.strictObject({ tier_id: z.uuid(), interval: billingInterval });
export type CheckoutBody = z.infer<typeof checkoutBody>;

/** Answer of checkout and portal: the provider page to send the browser to. */
export const redirectUrl = z.object({ url: z.url() });
