/** GET /api/subscription/tiers: the plans, cheapest first with the per-unit Enterprise last. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tier, type Tier } from '../../../../common/contracts/billing';
import { apiFetch } from '../../../lib/api-fetch';
import { subscriptionKey } from '../../../lib/queries/subscription-key';

/** Fetches the plans. @throws ApiError */
export function getSubscriptionTiers(signal?: AbortSignal): Promise<Tier[]> {
  return apiFetch('/api/subscription/tiers', { schema: z.array(tier), signal });
}

/** The plans change only when an operator edits them, so they are kept for the visit. */
export const subscriptionTiersQuery = queryOptions({
  queryKey: [...subscriptionKey, 'tiers'],
  queryFn: ({ signal }) => getSubscriptionTiers(signal),
  staleTime: Infinity,
  meta: { errorMessage: 'Failed to load data' },
});

/** The plans offered. */
export function useSubscriptionTiers() {
  return useQuery(subscriptionTiersQuery);
}
