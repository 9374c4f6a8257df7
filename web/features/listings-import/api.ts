/**
 * The Hostaway import's requests (server/modules/listings-import/routes.ts): the connection,
 * connect and disconnect, the account's listings, and saving a selection.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  hostawayConnection,
  hostawayListing,
  importListingsResult,
  webhookCredentials,
  type HostawayConnectBody,
  type ImportListingsBody,
} from '../../../common/contracts/listings-import';
import { ApiError, actionErrorMessage } from '../../lib/api-error';
import { apiFetch } from '../../lib/api-fetch';
import { invalidateStock } from '../../lib/stock-cache';

export const connectionQuery = queryOptions({
  queryKey: ['hostaway', 'connection'],
  queryFn: ({ signal }) => apiFetch('/api/hostaway/connection', { schema: hostawayConnection, signal }),
});

/** Whether the company is connected to Hostaway, and its sync state. */
export function useHostawayConnection() {
  return useQuery(connectionQuery);
}

/**
 * The message for a failed Hostaway call: `lead` (the dialog's text, e.g. 'Failed to fetch
 * listings.') unless the server's own message already starts with it or says why it refused.
 */
export function hostawayErrorMessage(error: unknown, lead: string): string {
  if (error instanceof ApiError && error.code === 'PROVIDER_ERROR') return error.message;
  return actionErrorMessage(error, lead);
}

/** Connects with a Client ID and Client Secret; the connection is read again afterwards. */
export function useConnectHostaway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: HostawayConnectBody) => apiFetch('/api/hostaway/connection', { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionQuery.queryKey }),
  });
}

/** Forgets the stored credentials; imported units stay. */
export function useDisconnectHostaway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/hostaway/connection', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionQuery.queryKey }),
  });
}

/** Reads the account's listings when asked ('Fetch Listings'), not on mount: each read costs Hostaway requests. */
export function useFetchListings() {
  return useMutation({ mutationFn: () => apiFetch('/api/hostaway/listings', { schema: z.array(hostawayListing) }) });
}

/** Saves the selection as units; the stock screens are read again. */
export function useImportListings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportListingsBody) => apiFetch('/api/hostaway/imports', { method: 'POST', body, schema: importListingsResult }),
    onSuccess: () => invalidateStock(queryClient),
  });
}

/** New webhook credentials; the password is in this answer only. */
export function useGenerateWebhookCredentials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/hostaway/webhook-credentials', { method: 'POST', schema: webhookCredentials }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionQuery.queryKey }),
  });
}
