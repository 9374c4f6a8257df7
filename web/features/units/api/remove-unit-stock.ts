/** DELETE /api/units/:id/inventory/:itemId: takes an item off the unit (its stock counted down to 0), with Undo. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { stockRowRemoval, type StockRowRemoval } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { unitQuery } from '../../../lib/queries/get-unit';
import { invalidateStock } from '../../../lib/stock-cache';
import { useStockChangeToast } from '../../../components/stock-change-toast';

/** Removes the stock row. @throws ApiError, 404 when the unit has no such row */
export function removeUnitStock({ unitId, itemId }: { unitId: string; itemId: string }): Promise<StockRowRemoval> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}`, { method: 'DELETE', idempotencyKey: true, schema: stockRowRemoval });
}

/** Remove mutation; the row leaves the page as soon as the server confirms, and Undo brings it back with its stock. */
export function useRemoveUnitStock() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  return useMutation({
    mutationFn: removeUnitStock,
    onSuccess: async (result, { unitId, itemId }) => {
      queryClient.setQueryData(unitQuery(unitId).queryKey, (unit) =>
        unit ? { ...unit, inventory: unit.inventory.filter((row) => row.item_id !== itemId) } : unit,
      );
      toastChange('Item removed', unitId, result.movement_ids);
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to update inventory')),
  });
}
