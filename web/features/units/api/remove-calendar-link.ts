/** DELETE /api/units/:id/calendar/links/:linkId: removes a calendar link with its stays that have not ended (admins and owners; docs/product.md "Calendar links"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStays } from '../../../lib/stock-cache';

/** Removes the link (204). @throws ApiError, 404 for an unknown unit or link */
export async function removeCalendarLink({ unitId, linkId }: { unitId: string; linkId: string }): Promise<void> {
  await apiFetch(`/api/units/${encodeURIComponent(unitId)}/calendar/links/${encodeURIComponent(linkId)}`, { method: 'DELETE' });
}

/** 'Remove' on a link, once confirmed. */
export function useRemoveCalendarLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCalendarLink,
    onSuccess: async (_, { unitId }) => {
      toast.success('Calendar link removed');
      await invalidateStays(queryClient, unitQuery(unitId).queryKey);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to remove the calendar link')),
  });
}
