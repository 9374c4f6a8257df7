/**
 * POST /api/units/:id/calendar/links: adds a calendar link to a property (admins and owners); the
 * server reads it at once and answers what it found (docs/product.md "Calendar links").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unitCalendar, type AddCalendarLinkBody, type UnitCalendar } from '../../../../common/contracts/calendars';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStays } from '../../../lib/stock-cache';
import { addedLinkMessage } from '../calendar-form';

/** Adds the link. @throws ApiError: 400 with field issues, 404 unknown unit, 409 the link already there or 5 links */
export function addCalendarLink({ unitId, body }: { unitId: string; body: AddCalendarLinkBody }): Promise<UnitCalendar> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/calendar/links`, { method: 'POST', body, schema: unitCalendar });
}

/** The 'Add calendar link' dialog's save: the toast says how many stays the link gave, or why it could not be read. */
export function useAddCalendarLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addCalendarLink,
    onSuccess: async (state, { body }) => {
      const message = addedLinkMessage(state, body.url);
      if (message.ok) toast.success(message.text);
      else toast.error(message.text);
      await invalidateStays(queryClient, unitQuery(state.unit_id).queryKey);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to add the calendar link')),
  });
}
