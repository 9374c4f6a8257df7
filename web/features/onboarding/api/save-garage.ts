/** POST /api/onboarding/garage: the tenant's first storage location and its starting quantities; saving again edits them. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { GarageStepBody } from '../../../../common/contracts/onboarding';
import { saveErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { onboardingStatusQuery } from '../../../lib/queries/get-onboarding-status';
import { setupQuery } from './get-setup';

/** Saves the storage step. @throws ApiError, CONFLICT when an earlier step is not done. */
export async function saveGarage(body: GarageStepBody): Promise<void> {
  await apiFetch('/api/onboarding/garage', { method: 'POST', idempotencyKey: true, body });
}

/** Storage step mutation. */
export function useSaveGarage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGarage,
    onSuccess: async () => {
      toast.success('Storage location saved successfully');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: onboardingStatusQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: setupQuery.queryKey }),
      ]);
    },
    onError: (error) => toast.error(saveErrorMessage(error, 'Failed to save storage location')),
  });
}
