/** POST /api/units/:id/inventory ("Add Manually"): adds a quantity (>= 1) of an item to the unit. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { stockChangeResult, type AddUnitStockBody, type StockChangeResult } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/** Adds the stock. @throws ApiError, 404 for an unknown unit or item */
export function addUnitStock({ unitId, body }: { unitId: string; body: AddUnitStockBody }): Promise<StockChangeResult> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/inventory`, { method: 'POST', body, schema: stockChangeResult });
}

/** Add Manually mutation; a new item gets a new row, so the unit is read again. */
export function useAddUnitStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addUnitStock,
    onSuccess: async () => {
      toast.success('Inventory added successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to add inventory')),
  });
}
