/** PUT /api/units/:id/calendar: saves a property's typical guests per stay (admins and owners; docs/product.md "Calendar links"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unitCalendar, type SaveTypicalGuestsBody, type UnitCalendar } from '../../../../common/contracts/calendars';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStays } from '../../../lib/stock-cache';

/** Saves the number (null: the default). @throws ApiError, 400 with field issues, 404 for an unknown unit */
export function saveTypicalGuests({ unitId, body }: { unitId: string; body: SaveTypicalGuestsBody }): Promise<UnitCalendar> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/calendar`, { method: 'PUT', body, schema: unitCalendar });
}

/** The typical guests dialog's save; the forecast counts stays without guests with the new number. */
export function useSaveTypicalGuests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTypicalGuests,
    onSuccess: async (saved) => {
      toast.success('Typical guests saved');
      await invalidateStays(queryClient, unitQuery(saved.unit_id).queryKey);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to save the typical guests')),
  });
}
