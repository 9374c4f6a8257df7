/** GET /api/onboarding/status: whether the tenant still needs onboarding, and its step (docs/product.md "Server rules"). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { onboardingStatus, type OnboardingStatus } from '../../../common/contracts/onboarding-status';
import { apiFetch } from '../api-fetch';

/** Fetches the status; a user without a company gets `company`. */
export function getOnboardingStatus(signal?: AbortSignal): Promise<OnboardingStatus> {
  return apiFetch('/api/onboarding/status', { schema: onboardingStatus, signal });
}

/** Tenant data: cached for 30 s (docs/product.md "Constants and limits"); every onboarding save updates or invalidates it. */
export const onboardingStatusQuery = queryOptions({
  queryKey: ['onboarding', 'status'],
  queryFn: ({ signal }) => getOnboardingStatus(signal),
  staleTime: 30_000,
  meta: { errorMessage: 'Failed to check onboarding status' },
});

/** The tenant's onboarding status. */
export function useOnboardingStatus() {
  return useQuery(onboardingStatusQuery);
}
