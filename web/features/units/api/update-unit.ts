/** PATCH /api/units/:id: Edit Unit / Assign Garage — name, address and garage (admins and owners). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unit, type Unit, type UpdateUnitBody } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStock } from '../../../lib/stock-cache';

/** Saves the unit; `garage_id` null unassigns it. @throws ApiError, 404 for an unknown unit or garage */
export function updateUnit({ id, body }: { id: string; body: UpdateUnitBody }): Promise<Unit> {
  return apiFetch(`/api/units/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: unit });
}

/** Edit Unit mutation; the answer is shown at once, the other views refresh behind it. */
export function useUpdateUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUnit,
    onSuccess: async (saved) => {
      queryClient.setQueryData(unitQuery(saved.id).queryKey, saved);
      toast.success('Unit updated successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to update unit')),
  });
}
