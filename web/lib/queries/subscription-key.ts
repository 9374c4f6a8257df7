/**
 * The first part of the key of every query about the tenant's plan: its status
 * (get-subscription-status.ts), and the usage and the plans of the Subscription screen.
 * Invalidating it refreshes them all, e.g. once a new company, a finished checkout or a 402
 * SUBSCRIPTION_REQUIRED may have changed the plan. A module of its own because the query client
 * is in the entry chunk: importing the status query there would bring zod and the contracts
 * into every screen's first download (decision 016).
 */
export const subscriptionKey = ['subscription'] as const;
