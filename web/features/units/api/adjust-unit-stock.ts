/**
 * The unit page's minus and plus buttons:
 * - POST /api/units/:id/inventory/:itemId/consume — 1 used up at the unit, floored at 0;
 * - POST /api/units/:id/inventory/:itemId/restock — 1 moved from the unit's garage to the unit.
 * The number changes on the tap and then settles on the server's answer; a refusal puts the row
 * back and says why ('Not enough stock available in garage', 'No garage assigned to this unit').
 */
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { stockChangeResult, type StockChangeResult } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { dashboardQuery } from '../../../lib/queries/get-dashboard';
import { garagesQuery } from '../../../lib/queries/get-garages';
import { unitQuery } from '../../../lib/queries/get-unit';
import { unitsQuery } from '../../../lib/queries/get-units';
import { applyAdjustment, applyStockResult, restoreRow, setGarageQuantity, type StockAdjustment } from '../unit-stock';

export interface AdjustUnitStockVariables {
  itemId: string;
  adjustment: StockAdjustment;
}

/** Consumes or restocks 1. @throws ApiError, 404; CONFLICT when a restock is not possible */
export function adjustUnitStock(unitId: string, { itemId, adjustment }: AdjustUnitStockVariables): Promise<StockChangeResult> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}/${adjustment}`, {
    method: 'POST',
    schema: stockChangeResult,
  });
}

const adjustKey = (unitId: string) => ['adjust-unit-stock', unitId] as const;

/** The mutation of the plus and minus buttons of one unit. */
export function useAdjustUnitStock(unitId: string) {
  const queryClient = useQueryClient();
  const key = unitQuery(unitId).queryKey;
  return useMutation({
    mutationKey: adjustKey(unitId),
    mutationFn: (variables: AdjustUnitStockVariables) => adjustUnitStock(unitId, variables),
    onMutate: async ({ itemId, adjustment }) => {
      // A refetch landing now would overwrite the new number with the old one.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const before = queryClient.getQueryData(key);
      if (before) queryClient.setQueryData(key, applyAdjustment(before, itemId, adjustment));
      return { before };
    },
    onError: (error, { itemId }, context) => {
      const before = context?.before;
      if (before) queryClient.setQueryData(key, (unit) => (unit ? restoreRow(unit, before, itemId) : unit));
      toast.error(actionErrorMessage(error, 'Failed to update quantity'));
    },
    onSuccess: (result, { itemId }) => {
      queryClient.setQueryData(key, (unit) => (unit ? applyStockResult(unit, itemId, result) : unit));
      const garageId = queryClient.getQueryData(key)?.garage_id;
      if (result.garage_quantity !== null && garageId) {
        const quantity = result.garage_quantity;
        queryClient.setQueryData(garagesQuery.queryKey, (garages) => (garages ? setGarageQuantity(garages, garageId, itemId, quantity) : garages));
      }
    },
    onSettled: async () => {
      // This page already shows the server's numbers; the other views are marked stale.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: unitsQuery.queryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: garagesQuery.queryKey }),
      ]);
    },
  });
}

/** The item ids of this unit whose plus or minus is waiting for the server. */
export function usePendingAdjustments(unitId: string): Set<string> {
  const pending = useMutationState({
    filters: { mutationKey: adjustKey(unitId), status: 'pending' },
    select: (mutation) => (mutation.state.variables as AdjustUnitStockVariables | undefined)?.itemId,
  });
  return new Set(pending.filter((itemId): itemId is string => Boolean(itemId)));
}
