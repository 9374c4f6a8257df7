/** GET /api/units/:id: one unit with its garage and stock rows. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { unit, type Unit } from '../../../common/contracts/stock';
import { apiFetch } from '../api-fetch';
import { unitsQuery } from './get-units';

/** Fetches the unit. @throws ApiError, NOT_FOUND for an unknown id or one of another company */
export function getUnit(unitId: string, signal?: AbortSignal): Promise<Unit> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}`, { schema: unit, signal });
}

/** The query of one unit, cached under ['units', id]: below the units list's key. */
export function unitQuery(unitId: string) {
  return queryOptions({
    queryKey: [...unitsQuery.queryKey, unitId],
    queryFn: ({ signal }) => getUnit(unitId, signal),
    meta: { errorMessage: 'Failed to fetch data' },
  });
}

/** One unit (the Unit detail screen). */
export function useUnit(unitId: string) {
  return useQuery(unitQuery(unitId));
}
