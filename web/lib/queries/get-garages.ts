/** GET /api/garages: the tenant's garages (storage) with their stock, ordered by name. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { garage, type Garage } from '../../../common/contracts/stock';
import { apiFetch } from '../api-fetch';

/** Fetches the garages. @throws ApiError */
export function getGarages(signal?: AbortSignal): Promise<Garage[]> {
  return apiFetch('/api/garages', { schema: z.array(garage), signal });
}

/** The garages with their stock; every stock change invalidates it (stock-cache.ts). */
export const garagesQuery = queryOptions({
  queryKey: ['garages'],
  queryFn: ({ signal }) => getGarages(signal),
  meta: { errorMessage: 'Failed to load data' },
});

/** The tenant's garages (the Garages screen, the garage pickers, the garage stock on a unit's page). */
export function useGarages() {
  return useQuery(garagesQuery);
}
