/**
 * PUT /api/units/:id/calendar: saves a property's calendar link and typical guests (admins and
 * owners); the server reads a link at once and answers what it found (docs/product.md "Stays").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unitCalendar, type SaveCalendarBody, type UnitCalendar } from '../../../../common/contracts/calendars';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStays } from '../../../lib/stock-cache';
import { savedCalendarMessage } from '../calendar-form';

/** Saves the link (null removes it). @throws ApiError, 400 with field issues, 404 for an unknown unit */
export function saveUnitCalendar({ unitId, body }: { unitId: string; body: SaveCalendarBody }): Promise<UnitCalendar> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/calendar`, { method: 'PUT', body, schema: unitCalendar });
}

/** The Edit dialog's save: the toast says how many stays were found, or why the link could not be read. */
export function useSaveUnitCalendar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUnitCalendar,
    onSuccess: async (saved) => {
      const message = savedCalendarMessage(saved);
      if (message.ok) toast.success(message.text);
      else toast.error(message.text);
      await invalidateStays(queryClient, unitQuery(saved.unit_id).queryKey);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to save the calendar link')),
  });
}
