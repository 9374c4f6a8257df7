/** DELETE /api/units/:id/inventory/:itemId: takes an item off the unit (its stock counted down to 0). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStock } from '../../../lib/stock-cache';

/** Removes the stock row. @throws ApiError, 404 when the unit has no such row */
export async function removeUnitStock({ unitId, itemId }: { unitId: string; itemId: string }): Promise<void> {
  await apiFetch(`/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}`, { method: 'DELETE' });
}

/** Remove mutation; the row leaves the page as soon as the server confirms. */
export function useRemoveUnitStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeUnitStock,
    onSuccess: async (_result, { unitId, itemId }) => {
      queryClient.setQueryData(unitQuery(unitId).queryKey, (unit) =>
        unit ? { ...unit, inventory: unit.inventory.filter((row) => row.item_id !== itemId) } : unit,
      );
      toast.success('Item removed');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to update inventory')),
  });
}
