/** PATCH /api/garages/:id: the inline edit of a garage's name and address (admins and owners). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { garage, type Garage, type UpdateGarageBody } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/** Saves name and address. @throws ApiError, 404 for an unknown id, FORBIDDEN for members */
export function updateGarage({ id, body }: { id: string; body: UpdateGarageBody }): Promise<Garage> {
  return apiFetch(`/api/garages/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: garage });
}

/** Inline edit mutation; units and alerts show the garage's name, so they are refreshed too. */
export function useUpdateGarage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGarage,
    onSuccess: async () => {
      toast.success('Garage updated successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to update garage')),
  });
}
