/** GET /api/subscription/status: trial and subscription state of the tenant (docs/product.md "Server rules", "Constants and limits"). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionStatus, type SubscriptionStatus } from '../../../common/contracts/session';
import { apiFetch } from '../api-fetch';
import { subscriptionKey } from './subscription-key';

/** Fetches the status. @throws ApiError, NO_TENANT (409) before the company onboarding step. */
export function getSubscriptionStatus(signal?: AbortSignal): Promise<SubscriptionStatus> {
  return apiFetch('/api/subscription/status', { schema: subscriptionStatus, signal });
}

/**
 * Cached for 30 s (docs/product.md "Constants and limits"). A failure is kept in the query's state without a toast
 * ('Failed to fetch subscription status', docs/product.md "Messages").
 */
export const subscriptionStatusQuery = queryOptions({
  queryKey: [...subscriptionKey, 'status'],
  queryFn: ({ signal }) => getSubscriptionStatus(signal),
  staleTime: 30_000,
});

/** The tenant's subscription status. */
export function useSubscriptionStatus() {
  return useQuery(subscriptionStatusQuery);
}
