/**
 * The signed-in user's context: GET /api/me. `tenant` and `role` are null before the company
 * onboarding step has created the tenant.
 *
 * Written with `zod/mini`, like every answer the dashboard reads before its first paint: the
 * browser validates these answers, and zod's classic API costs that first screen 25 kB of gzip
 * and its evaluation on a slow phone, the functional one a fifth of it (decision 016). The
 * schemas are the same to the server (validation, serialization, the API document).
 */
import * as z from 'zod/mini';

export const roles = ['owner', 'admin', 'member'] as const;
export type Role = (typeof roles)[number];

export const meResponse = z.object({
  user: z.object({ id: z.string(), email: z.string() }),
  tenant: z.nullable(z.object({ id: z.string(), name: z.string() })),
  role: z.nullable(z.enum(roles)),
});
export type MeResponse = z.infer<typeof meResponse>;

/** GET /api/subscription/status — the subscription status (docs/product.md "Server rules"). */
export const subscriptionStatus = z.object({
  subscription_status: z.enum(['active', 'inactive']),
  trial_status: z.enum(['active', 'expired']),
  tier_name: z.nullable(z.string()),
  /** Whole days left in the trial (UTC), 0 once expired. */
  days_remaining: z.int(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;
