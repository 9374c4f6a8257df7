/**
 * POST /api/units/:id/inventory — "Add Manually", received from outside (a purchase): adds a
 * quantity (>= 1) of an item to the unit without taking it from a garage. Stock from the unit's
 * garage goes through transfer-unit-stock.ts.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { stockMoveResult, type AddUnitStockBody, type StockMoveResult } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { receivedFromOutside } from '../stock-messages';
import { recordStockChange } from '../unit-stock';
import { useStockChangeToast } from '../../../components/stock-change-toast';

/** Adds the stock. @throws ApiError, 404 for an unknown unit or item */
export function addUnitStock({ unitId, body }: { unitId: string; body: AddUnitStockBody; itemName: string }): Promise<StockMoveResult> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/inventory`, { method: 'POST', idempotencyKey: true, body, schema: stockMoveResult });
}

/** Add Manually mutation (from outside); a new item gets a new row, so the unit is read again. */
export function useAddUnitStock() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  return useMutation({
    mutationFn: addUnitStock,
    onSuccess: async (result, { unitId, body, itemName }) => {
      toastChange(receivedFromOutside(body.quantity, itemName), unitId, result.movement_ids);
      await recordStockChange(queryClient, unitId, body.item_id, result);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to add inventory')),
  });
}
