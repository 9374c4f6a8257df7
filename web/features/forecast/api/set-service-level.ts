/**
 * PUT /api/forecast/service-level (admins): the service level the company's pick lists bring for
 * (docs/product.md "Screens: Forecast"). On success the forecast and the pick lists are read again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { serviceLevelAnswer, type ServiceLevelAnswer } from '../../../../common/contracts/forecast';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { forecastKey } from '../../../lib/queries/forecast-key';

/** Sets the level (percent, one of SERVICE_LEVELS). @throws ApiError, FORBIDDEN for a member */
export function setServiceLevel(level: number): Promise<ServiceLevelAnswer> {
  return apiFetch('/api/forecast/service-level', { method: 'PUT', body: { service_level: level }, schema: serviceLevelAnswer });
}

/** The mutation: a toast naming the new level, or the server's reason. */
export function useSetServiceLevel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setServiceLevel,
    onSuccess: async ({ service_level }) => {
      toast.success(`Service level set to ${service_level} %`);
      await queryClient.invalidateQueries({ queryKey: forecastKey });
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to set the service level')),
  });
}
