/**
 * POST /api/onboarding/units: the properties, all linked to the onboarding storage location;
 * the server marks setup complete in the same request ("Complete Setup").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { UnitsStepBody } from '../../../../common/contracts/onboarding';
import type { OnboardingStatus } from '../../../../common/contracts/onboarding-status';
import { saveErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { dashboardQuery } from '../../../lib/queries/get-dashboard';
import { onboardingStatusQuery } from '../../../lib/queries/get-onboarding-status';

/** Saves the properties and completes setup. @throws ApiError, CONFLICT when an earlier step is not done. */
export async function completeSetup(body: UnitsStepBody): Promise<void> {
  await apiFetch('/api/onboarding/units', { method: 'POST', body });
}

/**
 * Properties step mutation. The cached status is set to "done" at once, so the dashboard opened
 * next does not send the user back into the wizard on stale data.
 */
export function useCompleteSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeSetup,
    onSuccess: async () => {
      const done: OnboardingStatus = { needs_onboarding: false, current_step: 'units' };
      queryClient.setQueryData(onboardingStatusQuery.queryKey, done);
      toast.success('Setup completed successfully!');
      await queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey });
    },
    onError: (error) => toast.error(saveErrorMessage(error, 'Failed to save properties')),
  });
}
