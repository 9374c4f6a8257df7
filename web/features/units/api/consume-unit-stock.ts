/** POST /api/units/:id/inventory/:itemId/consume — minus taps sent together: n used at the unit, never below 0. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { stockMoveResult, type StockMoveResult } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { isChangeKept, sendStockWrite } from '../../../lib/stock-write';
import { toastKept } from '../../../components/kept-change-toast';
import { usedAtUnit } from '../stock-messages';
import { recordStockChange } from '../unit-stock';
import { useStockChangeToast } from '../../../components/stock-change-toast';

export interface ConsumeUnitStockVariables {
  unitId: string;
  itemId: string;
  quantity: number;
  /** For the toast: '2 Bath Towel used'. */
  itemName: string;
  /** The page is being left: the request must outlive it. */
  keepalive?: boolean;
}

/** Uses the stock. @throws ApiError, 404 when the unit has no such row */
export function consumeUnitStock({ unitId, itemId, quantity, keepalive, itemName }: ConsumeUnitStockVariables): Promise<StockMoveResult> {
  return sendStockWrite(
    `/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}/consume`,
    { body: { quantity }, schema: stockMoveResult, keepalive },
    { kind: 'taps', label: usedAtUnit(quantity, itemName), href: `/unit/${unitId}` },
  );
}

/** The minus mutation: the toast says what was used and offers Undo. */
export function useConsumeUnitStock() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  return useMutation({
    mutationFn: consumeUnitStock,
    onSuccess: async (result, v) => {
      // Nothing written: the unit had nothing left to use (someone else used it meanwhile).
      if (result.movement_ids.length > 0) toastChange(usedAtUnit(v.quantity, v.itemName), v.unitId, result.movement_ids);
      await recordStockChange(queryClient, v.unitId, v.itemId, result);
    },
    onError: (error) => (isChangeKept(error) ? toastKept() : toast.error(actionErrorMessage(error, 'Failed to update quantity'))),
  });
}
