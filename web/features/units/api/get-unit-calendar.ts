/** GET /api/units/:id/calendar: a property's calendar links with their last reads, and its typical guests (docs/product.md "Stays"). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { unitCalendar, type UnitCalendar } from '../../../../common/contracts/calendars';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';

/** Fetches the links' state. @throws ApiError, NOT_FOUND for an unknown unit or one of another company */
export function getUnitCalendar(unitId: string, signal?: AbortSignal): Promise<UnitCalendar> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/calendar`, { schema: unitCalendar, signal });
}

/** Cached under the unit's own key, so refreshing the unit refreshes it too. */
export function unitCalendarQuery(unitId: string) {
  return queryOptions({
    queryKey: [...unitQuery(unitId).queryKey, 'calendar'],
    queryFn: ({ signal }) => getUnitCalendar(unitId, signal),
    meta: { errorMessage: 'Failed to load the calendar links' },
  });
}

/** The property's calendar links (Unit detail). */
export function useUnitCalendar(unitId: string) {
  return useQuery(unitCalendarQuery(unitId));
}
