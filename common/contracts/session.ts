/**
 * The signed-in user's context: GET /api/me. `tenant` and `role` are null before the company
 * onboarding step has created the tenant.
 */
import { z } from 'zod';

export const roles = ['owner', 'admin', 'member'] as const;
export type Role = (typeof roles)[number];

export const meResponse = z.object({
  user: z.object({ id: z.string(), email: z.string() }),
  tenant: z.object({ id: z.string(), name: z.string() }).nullable(),
  role: z.enum(roles).nullable(),
});
export type MeResponse = z.infer<typeof meResponse>;

/** GET /api/subscription/status — the subscription status (docs/product.md "Server rules"). */
export const subscriptionStatus = z.object({
  subscription_status: z.enum(['active', 'inactive']),
  trial_status: z.enum(['active', 'expired']),
  tier_name: z.string().nullable(),
  /** Whole days left in the trial (UTC), 0 once expired. */
  days_remaining: z.number().int(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;
