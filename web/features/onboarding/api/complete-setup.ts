/**
 * POST /api/onboarding/units: the properties, all linked to the onboarding storage location,
 * filled to their minimum from it when asked; the server marks setup complete in the same
 * request ("Complete Setup").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unitsStepResult, type UnitsStepBody, type UnitsStepResult } from '../../../../common/contracts/onboarding';
import type { OnboardingStatus } from '../../../../common/contracts/onboarding-status';
import { toastWarning } from '../../../components/ui/toasts';
import { saveErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { dashboardQuery } from '../../../lib/queries/get-dashboard';
import { onboardingStatusQuery } from '../../../lib/queries/get-onboarding-status';
import { notCoveredMessage } from '../saved-setup';
import { setupQuery } from './get-setup';

/** Saves the properties and completes setup. @throws ApiError, CONFLICT when an earlier step is not done. */
export function completeSetup(body: UnitsStepBody): Promise<UnitsStepResult> {
  return apiFetch('/api/onboarding/units', { method: 'POST', idempotencyKey: true, body, schema: unitsStepResult });
}

/**
 * Properties step mutation. The cached status is set to "done" at once, so the dashboard opened
 * next does not send the user back into the wizard on stale data. What storage could not cover
 * is said in a warning that stays a few seconds.
 */
export function useCompleteSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeSetup,
    onSuccess: async (result) => {
      const done: OnboardingStatus = { needs_onboarding: false, current_step: 'units' };
      queryClient.setQueryData(onboardingStatusQuery.queryKey, done);
      queryClient.removeQueries({ queryKey: setupQuery.queryKey });
      toast.success('Setup completed successfully!');
      if (result.short.length > 0) toastWarning(notCoveredMessage(result.short));
      await queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey });
    },
    onError: (error) => toast.error(saveErrorMessage(error, 'Failed to save properties')),
  });
}
