/**
 * The Webhooks screen's requests about endpoints (docs/product.md "Webhooks"): GET /api/webhooks,
 * creating, changing (URL, description, events, enabled), deleting an endpoint, and sending it a
 * test event. Each change refreshes the list; refusals are shown as the server words them. Never
 * kept on the device (not a persisted query).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import {
  createWebhookEndpointAnswer,
  updateWebhookEndpointAnswer,
  webhookDeliveryAnswer,
  webhookEndpointList,
  type CreateWebhookEndpointAnswer,
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '../../../../common/contracts/webhooks';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { deliveriesQueryKey, endpointsQueryKey } from './query-keys';

/** The path of one endpoint's routes. */
function endpointPath(endpointId: string): string {
  return `/api/webhooks/${encodeURIComponent(endpointId)}`;
}

/** Fetches the company's endpoints. @throws ApiError */
export function getWebhookEndpoints(signal?: AbortSignal): Promise<WebhookEndpointList> {
  return apiFetch('/api/webhooks', { schema: webhookEndpointList, signal });
}

export const webhookEndpointsQuery = queryOptions({
  queryKey: endpointsQueryKey,
  queryFn: ({ signal }) => getWebhookEndpoints(signal),
  meta: { errorMessage: 'Failed to load webhook endpoints' },
});

/** The screen's list. */
export function useWebhookEndpoints() {
  return useQuery(webhookEndpointsQuery);
}

/** Add endpoint; the answer holds the signing secret, which the screen shows once. @throws ApiError: VALIDATION, FORBIDDEN, SUBSCRIPTION_REQUIRED */
export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookEndpointBody): Promise<CreateWebhookEndpointAnswer> =>
      apiFetch('/api/webhooks', { method: 'POST', body, schema: createWebhookEndpointAnswer }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: endpointsQueryKey, exact: true });
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to add the webhook endpoint'));
    },
  });
}

/** What a change is, for its toasts: an edit of the form's fields, or Enable / Disable. */
type EndpointChange = { endpoint: WebhookEndpoint; body: UpdateWebhookEndpointBody };

function changeTexts(body: UpdateWebhookEndpointBody): { done: string; failed: string } {
  if (body.enabled === true) return { done: 'Webhook endpoint enabled', failed: 'Failed to enable the webhook endpoint' };
  if (body.enabled === false) return { done: 'Webhook endpoint disabled', failed: 'Failed to disable the webhook endpoint' };
  return { done: 'Webhook endpoint saved', failed: 'Failed to save the webhook endpoint' };
}

/** Edit endpoint, Enable and Disable (PATCH /api/webhooks/:id). @throws ApiError: VALIDATION, NOT_FOUND */
export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpoint, body }: EndpointChange) => apiFetch(endpointPath(endpoint.id), { method: 'PATCH', body, schema: updateWebhookEndpointAnswer }),
    onSuccess: async (_answer, { endpoint, body }) => {
      toast.success(changeTexts(body).done);
      // Disabling fails the endpoint's pending deliveries: its open log changes too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: endpointsQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(endpoint.id) }),
      ]);
    },
    onError: (error, { body }) => {
      toast.error(actionErrorMessage(error, changeTexts(body).failed));
    },
  });
}

/** Delete: the endpoint receives nothing more. */
export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => apiFetch(endpointPath(endpoint.id), { method: 'DELETE' }),
    onSuccess: async () => {
      toast.success('Webhook endpoint deleted');
      await queryClient.invalidateQueries({ queryKey: endpointsQueryKey, exact: true });
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to delete the webhook endpoint'));
    },
  });
}

/** Send test event: a `webhook.test` delivery to the endpoint, attempted within the request; its outcome is the caller's toast. @throws ApiError: CONFLICT (disabled) */
export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (endpoint: WebhookEndpoint): Promise<WebhookDelivery> =>
      (await apiFetch(`${endpointPath(endpoint.id)}/test`, { method: 'POST', schema: webhookDeliveryAnswer })).delivery,
    // The attempt may have changed the endpoint's failing state, and adds to its log.
    onSettled: async (_delivery, _error, endpoint) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(endpoint.id) }),
        queryClient.invalidateQueries({ queryKey: endpointsQueryKey, exact: true }),
      ]);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to send the test event'));
    },
  });
}
