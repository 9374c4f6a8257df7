/** POST /api/onboarding/company: creates the company (tenant) with its trial; the user becomes owner. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { CompanyStepBody } from '../../../../common/contracts/onboarding';
import { saveErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { meQuery } from '../../../lib/queries/get-me';
import { onboardingStatusQuery } from '../../../lib/queries/get-onboarding-status';
import { subscriptionKey } from '../../../lib/queries/subscription-key';

/** Saves the company step. @throws ApiError, CONFLICT when the user already has a company. */
export async function saveCompany(body: CompanyStepBody): Promise<void> {
  await apiFetch('/api/onboarding/company', { method: 'POST', body });
}

/** Company step mutation; a new tenant changes the user's context, plan and onboarding status. */
export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCompany,
    onSuccess: async () => {
      toast.success('Company created successfully');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: onboardingStatusQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: subscriptionKey }),
      ]);
    },
    onError: (error) => toast.error(saveErrorMessage(error, 'Failed to save company')),
  });
}
