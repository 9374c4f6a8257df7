/**
 * The API keys screen's requests (docs/product.md "API keys", docs/decisions/049-api-keys.md):
 * GET /api/api-keys, and creating and revoking a key. Each change refreshes the list; refusals
 * are shown as the server words them. Never kept on the device (not a persisted query).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { apiKeyList, createdApiKey, type ApiKey, type ApiKeyList, type CreateApiKeyBody, type CreatedApiKey } from '../../../../common/contracts/api-keys';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';

/** Fetches the company's keys. @throws ApiError */
export function getApiKeys(signal?: AbortSignal): Promise<ApiKeyList> {
  return apiFetch('/api/api-keys', { schema: apiKeyList, signal });
}

export const apiKeysQuery = queryOptions({
  queryKey: ['api-keys'],
  queryFn: ({ signal }) => getApiKeys(signal),
  meta: { errorMessage: 'Failed to load API keys' },
});

/** The screen's list. */
export function useApiKeys() {
  return useQuery(apiKeysQuery);
}

/** Create API Key; the answer holds the whole key, which the screen shows once. @throws ApiError: FORBIDDEN, SUBSCRIPTION_REQUIRED */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody): Promise<CreatedApiKey> => apiFetch('/api/api-keys', { method: 'POST', body, schema: createdApiKey }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey });
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to create the API key'));
    },
  });
}

/** Revoke: the next request made with the key is refused. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: ApiKey) => apiFetch(`/api/api-keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }),
    onSuccess: async (_data, key) => {
      toast.success(`API key “${key.name}” revoked`);
      await queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey });
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to revoke the API key'));
    },
  });
}
