/** GET /api/onboarding/setup: what the setup steps saved so far, so a reopened step shows it (docs/decisions/027-first-day-setup.md). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { onboardingSetup, type OnboardingSetup } from '../../../../common/contracts/onboarding';
import { apiFetch } from '../../../lib/api-fetch';

/** Fetches the saved items and storage. @throws ApiError, NO_TENANT before the company step. */
export function getSetup(signal?: AbortSignal): Promise<OnboardingSetup> {
  return apiFetch('/api/onboarding/setup', { schema: onboardingSetup, signal });
}

/** The saved setup; the items and storage steps refresh it when they save. */
export const setupQuery = queryOptions({
  queryKey: ['onboarding', 'setup'],
  queryFn: ({ signal }) => getSetup(signal),
  meta: { errorMessage: 'Failed to load data' },
});

/** The saved setup, once the company exists (`enabled`). */
export function useSetup(enabled: boolean) {
  return useQuery({ ...setupQuery, enabled });
}
