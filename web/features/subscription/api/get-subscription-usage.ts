/**
 * GET /api/subscription/usage: how much of each limit (units, items, garages, users) the tenant
 * uses under the plan in force (docs/product.md "Server rules", get_tenant_resource_counts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { usage, type Usage } from '../../../../common/contracts/billing';
import { apiFetch } from '../../../lib/api-fetch';
import { subscriptionKey } from '../../../lib/queries/subscription-key';

/** Fetches the usage. @throws ApiError, NO_TENANT (409) before the company onboarding step. */
export function getSubscriptionUsage(signal?: AbortSignal): Promise<Usage> {
  return apiFetch('/api/subscription/usage', { schema: usage, signal });
}

/**
 * Tenant data: cached for 30 s (docs/product.md "Constants and limits"). A failure shows no toast: the usage only
 * complements the plans, which stay usable without it.
 */
export const subscriptionUsageQuery = queryOptions({
  queryKey: [...subscriptionKey, 'usage'],
  queryFn: ({ signal }) => getSubscriptionUsage(signal),
  staleTime: 30_000,
});

/** The tenant's usage of its plan's limits. */
export function useSubscriptionUsage() {
  return useQuery(subscriptionUsageQuery);
}
