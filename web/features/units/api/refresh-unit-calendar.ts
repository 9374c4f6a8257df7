/** POST /api/units/:id/calendar/refresh: 'Refresh now' (members; once a minute per property, docs/product.md "Stays"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unitCalendar, type UnitCalendar } from '../../../../common/contracts/calendars';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStays } from '../../../lib/stock-cache';
import { refreshedCalendarMessage } from '../calendar-form';

/** Reads the links now. @throws ApiError: 404 unknown unit, 409 no link, 429 refreshed less than a minute ago */
export function refreshUnitCalendar(unitId: string): Promise<UnitCalendar> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/calendar/refresh`, { method: 'POST', schema: unitCalendar });
}

/** 'Refresh now': the toast says how many stays are ahead, or which link could not be read and why. */
export function useRefreshUnitCalendar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshUnitCalendar,
    onSuccess: async (state) => {
      const message = refreshedCalendarMessage(state);
      if (message.ok) toast.success(message.text);
      else toast.error(message.text);
      await invalidateStays(queryClient, unitQuery(state.unit_id).queryKey);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to refresh the calendar')),
  });
}
