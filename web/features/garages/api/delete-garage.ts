/**
 * DELETE /api/garages/:id (admins and owners): its units become unassigned. Refused for the
 * tenant's last garage.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/** Deletes the garage. @throws ApiError, LAST_RECORD for the last one, FORBIDDEN for members */
export async function deleteGarage(id: string): Promise<void> {
  await apiFetch(`/api/garages/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Delete mutation; the server's reason is shown when it refuses. */
export function useDeleteGarage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGarage,
    onSuccess: async () => {
      toast.success('Garage deleted successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to delete garage')),
  });
}
