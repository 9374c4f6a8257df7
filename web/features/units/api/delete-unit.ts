/** DELETE /api/units/:id (admins and owners). Refused for the tenant's last unit. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStock } from '../../../lib/stock-cache';

/** Deletes the unit. @throws ApiError, LAST_RECORD for the last one, FORBIDDEN for members */
export async function deleteUnit(id: string): Promise<void> {
  await apiFetch(`/api/units/${encodeURIComponent(id)}`, { method: 'DELETE', idempotencyKey: true });
}

/** Delete mutation; the server's reason is shown when it refuses. */
export function useDeleteUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUnit,
    onSuccess: async (_result, id) => {
      // A deleted unit's page must not be served from the cache any more.
      queryClient.removeQueries({ queryKey: unitQuery(id).queryKey, exact: true });
      toast.success('Unit deleted successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to delete property')),
  });
}
