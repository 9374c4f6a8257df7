/** GET /api/me: the signed-in user with their company (tenant) and role. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { meResponse, type MeResponse } from '../../../common/contracts/session';
import { apiFetch } from '../api-fetch';

/** Fetches the user's context. @throws ApiError, UNAUTHENTICATED (401) when signed out. */
export function getMe(signal?: AbortSignal): Promise<MeResponse> {
  return apiFetch('/api/me', { schema: meResponse, signal });
}

/** Tenant data: cached for 30 s (docs/product.md "Constants and limits"). */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: ({ signal }) => getMe(signal),
  staleTime: 30_000,
  meta: { errorMessage: 'Failed to fetch user role' },
});

/** The signed-in user's context. */
export function useMe() {
  return useQuery(meQuery);
}
