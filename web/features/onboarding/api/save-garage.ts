/** POST /api/onboarding/garage: the tenant's first storage location; saving again renames it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { GarageStepBody } from '../../../../common/contracts/onboarding';
import { saveErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { onboardingStatusQuery } from '../../../lib/queries/get-onboarding-status';

/** Saves the storage step. @throws ApiError, CONFLICT when an earlier step is not done. */
export async function saveGarage(body: GarageStepBody): Promise<void> {
  await apiFetch('/api/onboarding/garage', { method: 'POST', body });
}

/** Storage step mutation. */
export function useSaveGarage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGarage,
    onSuccess: async () => {
      toast.success('Storage location saved successfully');
      await queryClient.invalidateQueries({ queryKey: onboardingStatusQuery.queryKey });
    },
    onError: (error) => toast.error(saveErrorMessage(error, 'Failed to save storage location')),
  });
}
