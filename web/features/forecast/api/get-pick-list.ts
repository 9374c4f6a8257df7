/** GET /api/garages/:id/pick-list?date=: what to take from one garage on one day, by property in arrival order. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { pickListAnswer, type PickListAnswer } from '../../../../common/contracts/forecast';
import { apiFetch } from '../../../lib/api-fetch';
import { forecastKey } from '../../../lib/queries/forecast-key';

/**
 * Fetches the pick list of `date` ('YYYY-MM-DD'), or of the server's default day (tomorrow in the
 * company's time zone) without one. @throws ApiError, NOT_FOUND for an unknown garage or one of another company
 */
export function getPickList(garageId: string, date: string | undefined, signal?: AbortSignal): Promise<PickListAnswer> {
  const query = date ? `?date=${encodeURIComponent(date)}` : '';
  return apiFetch(`/api/garages/${encodeURIComponent(garageId)}/pick-list${query}`, { schema: pickListAnswer, signal });
}

/** The pick list, under the forecast's key: every stock change (a delivery too) refreshes it. */
export function pickListQuery(garageId: string, date: string | undefined) {
  return queryOptions({
    queryKey: [...forecastKey, 'pick-list', garageId, date ?? 'default'],
    queryFn: ({ signal }) => getPickList(garageId, date, signal),
    meta: { errorMessage: 'Failed to load the pick list' },
  });
}

/** The pick list (the Pick list screen). */
export function usePickList(garageId: string, date: string | undefined) {
  return useQuery(pickListQuery(garageId, date));
}
