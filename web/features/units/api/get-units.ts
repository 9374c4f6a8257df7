/** GET /api/units: the tenant's units with their garage and stock rows, ordered by name. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { unit, type Unit } from '../../../../common/contracts/stock';
import { apiFetch } from '../../../lib/api-fetch';
import { unitsKey } from '../../../lib/stock-cache';

/** Fetches the units. @throws ApiError */
export function getUnits(signal?: AbortSignal): Promise<Unit[]> {
  return apiFetch('/api/units', { schema: z.array(unit), signal });
}

export const unitsQuery = queryOptions({
  queryKey: unitsKey,
  queryFn: ({ signal }) => getUnits(signal),
  meta: { errorMessage: 'Failed to load units' },
});

/** The tenant's units. */
export function useUnits() {
  return useQuery(unitsQuery);
}
