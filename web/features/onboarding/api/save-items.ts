/** POST /api/onboarding/items: the tenant's first items; saving again edits them (by id, else by name) and adds new ones. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { ItemsStepBody } from '../../../../common/contracts/onboarding';
import { saveErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { onboardingStatusQuery } from '../../../lib/queries/get-onboarding-status';
import { setupQuery } from './get-setup';

/** Saves the items step. @throws ApiError, CONFLICT when an earlier step is not done. */
export async function saveItems(body: ItemsStepBody): Promise<void> {
  await apiFetch('/api/onboarding/items', { method: 'POST', body });
}

/** Items step mutation. */
export function useSaveItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveItems,
    onSuccess: async () => {
      toast.success('Items saved successfully');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: onboardingStatusQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: setupQuery.queryKey }),
      ]);
    },
    onError: (error) => toast.error(saveErrorMessage(error, 'Failed to save items')),
  });
}
