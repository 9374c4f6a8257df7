/**
 * DELETE /api/garages/:id (admins and owners): only a garage that holds no stock and no property;
 * otherwise refused with what it still holds (CONFLICT, shown by the Garages screen's dialog).
 * Refused for the tenant's last garage.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/** Deletes the garage. @throws ApiError, CONFLICT while it holds stock or properties, LAST_RECORD for the last one, FORBIDDEN for members */
export async function deleteGarage(id: string): Promise<void> {
  await apiFetch(`/api/garages/${encodeURIComponent(id)}`, { method: 'DELETE', idempotencyKey: true });
}

/** Delete mutation; the server's reason is shown when it refuses (a garage in use: by the dialog). */
export function useDeleteGarage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGarage,
    onSuccess: async () => {
      toast.success('Garage deleted successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => {
      if (!hasErrorCode(error, 'CONFLICT')) toast.error(actionErrorMessage(error, 'Failed to delete garage'));
    },
  });
}
