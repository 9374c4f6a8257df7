/** POST /api/units/:id/inventory/:itemId/consume — minus taps sent together: n used at the unit, never below 0. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { stockMoveResult, type StockMoveResult } from '../../../../common/contracts/stock';
import { sendStockWrite } from '../../../lib/stock-write';
import { toastStockWriteFailure } from '../../../components/kept-change-toast';
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
  /** Retry of a change the network failed to send: its Idempotency-Key (stock-write.ts). */
  idempotencyKey?: string;
}

/** Uses the stock. @throws ApiError, 404 when the unit has no such row */
export function consumeUnitStock({ unitId, itemId, quantity, keepalive, itemName, idempotencyKey }: ConsumeUnitStockVariables): Promise<StockMoveResult> {
  return sendStockWrite(
    `/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}/consume`,
    { body: { quantity }, schema: stockMoveResult, keepalive, idempotencyKey },
    { kind: 'taps', label: usedAtUnit(quantity, itemName), href: `/unit/${unitId}` },
  );
}

/** The minus mutation: the toast says what was used and offers Undo. */
export function useConsumeUnitStock() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  const mutation = useMutation({
    mutationFn: consumeUnitStock,
    onSuccess: async (result, v) => {
      // Nothing written: the unit had nothing left to use (someone else used it meanwhile).
      if (result.movement_ids.length > 0) toastChange(usedAtUnit(v.quantity, v.itemName), v.unitId, result.movement_ids);
      await recordStockChange(queryClient, v.unitId, v.itemId, result);
    },
    // Retry sends the same change again, with its key and no longer as the page is left.
    onError: (error, v) => toastStockWriteFailure(error, 'Failed to update quantity', (idempotencyKey) => mutation.mutate({ ...v, idempotencyKey, keepalive: false })),
  });
  return mutation;
}
