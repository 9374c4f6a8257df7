/**
 * An endpoint's delivery log (docs/product.md "Webhooks"): GET /api/webhooks/:id/deliveries, its
 * last deliveries newest first, and Resend of one of them. While a delivery waits for an attempt
 * the log is read again (log-refresh.ts), so its outcome shows without a reload.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { webhookDeliveryAnswer, webhookDeliveryList, type WebhookDelivery, type WebhookDeliveryList } from '../../../../common/contracts/webhooks';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { toastAttempt } from '../attempt-toast';
import { logRefreshDelay } from '../log-refresh';
import { deliveriesQueryKey, endpointsQueryKey } from './query-keys';

function deliveriesPath(endpointId: string): string {
  return `/api/webhooks/${encodeURIComponent(endpointId)}/deliveries`;
}

/** Fetches an endpoint's log. @throws ApiError: NOT_FOUND once the endpoint is deleted */
export function getWebhookDeliveries(endpointId: string, signal?: AbortSignal): Promise<WebhookDeliveryList> {
  return apiFetch(deliveriesPath(endpointId), { schema: webhookDeliveryList, signal });
}

function deliveriesQuery(endpointId: string) {
  return queryOptions({
    queryKey: deliveriesQueryKey(endpointId),
    queryFn: ({ signal }) => getWebhookDeliveries(endpointId, signal),
    meta: { errorMessage: 'Failed to load the delivery log' },
    refetchInterval: (query) => logRefreshDelay(query.state.data?.deliveries ?? [], new Date()),
  });
}

/** The log of the endpoint `endpointId`, read while it is shown. */
export function useWebhookDeliveries(endpointId: string) {
  return useQuery(deliveriesQuery(endpointId));
}

/** Resend: the same event (same `webhook-id`) attempted again within the request; the toast tells how it went. */
export function useResendDelivery(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (delivery: WebhookDelivery): Promise<WebhookDelivery> =>
      (await apiFetch(`${deliveriesPath(endpointId)}/${encodeURIComponent(delivery.id)}/resend`, { method: 'POST', schema: webhookDeliveryAnswer })).delivery,
    // The attempt may also have changed the endpoint's failing state.
    onSuccess: async (delivery) => {
      toastAttempt('resend', delivery);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(endpointId) }),
        queryClient.invalidateQueries({ queryKey: endpointsQueryKey, exact: true }),
      ]);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to resend the delivery'));
    },
  });
}
