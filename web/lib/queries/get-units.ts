/** GET /api/units: the tenant's units with their garage and stock rows, ordered by name. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { unit, type Unit } from '../../../common/contracts/stock';
import { apiFetch } from '../api-fetch';

/** Fetches the units. @throws ApiError */
export function getUnits(signal?: AbortSignal): Promise<Unit[]> {
  return apiFetch('/api/units', { schema: z.array(unit), signal });
}

/**
 * The units list, cached under ['units']. Each unit's own query (get-unit.ts) is cached under
 * this key plus its id, so invalidating this key without `exact` refreshes those too.
 */
export const unitsQuery = queryOptions({
  queryKey: ['units'],
  queryFn: ({ signal }) => getUnits(signal),
  meta: { errorMessage: 'Failed to load units' },
});

/** The tenant's units. */
export function useUnits() {
  return useQuery(unitsQuery);
}
