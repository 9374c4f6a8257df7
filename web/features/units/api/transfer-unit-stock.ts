/**
 * POST /api/units/:id/inventory/:itemId/transfer — n moved from the unit's garage in one transfer:
 * plus taps sent together, restock by quantity, and Add Manually from the garage (which opens the
 * row of an item the unit does not hold yet). Refused whole: 'Not enough stock available in
 * garage', 'No garage assigned to this unit'.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { stockMoveResult, type StockMoveResult } from '../../../../common/contracts/stock';
import { sendStockWrite } from '../../../lib/stock-write';
import { toastStockWriteFailure } from '../../../components/kept-change-toast';
import { movedFromGarage } from '../stock-messages';
import { recordStockChange } from '../unit-stock';
import { useStockChangeToast } from '../../../components/stock-change-toast';

export interface TransferUnitStockVariables {
  unitId: string;
  itemId: string;
  quantity: number;
  /** For the toast: '3 Bath Towel moved from Main Storage'. */
  itemName: string;
  garageName: string;
  /** The page is being left: the request must outlive it. */
  keepalive?: boolean;
  /** Retry of a change the network failed to send: its Idempotency-Key (stock-write.ts). */
  idempotencyKey?: string;
}

/** Moves the stock. @throws ApiError, 404; CONFLICT when the garage holds less or the unit has none */
export function transferUnitStock({ unitId, itemId, quantity, keepalive, itemName, garageName, idempotencyKey }: TransferUnitStockVariables): Promise<StockMoveResult> {
  return sendStockWrite(
    `/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}/transfer`,
    { body: { quantity }, schema: stockMoveResult, keepalive, idempotencyKey },
    { kind: 'taps', label: movedFromGarage(quantity, itemName, garageName), href: `/unit/${unitId}` },
  );
}

/** The transfer mutation: the page shows the server's numbers, and the toast offers Undo. */
export function useTransferUnitStock() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  const mutation = useMutation({
    mutationFn: transferUnitStock,
    onSuccess: async (result, v) => {
      toastChange(movedFromGarage(v.quantity, v.itemName, v.garageName), v.unitId, result.movement_ids);
      await recordStockChange(queryClient, v.unitId, v.itemId, result);
    },
    // Retry sends the same change again, with its key and no longer as the page is left.
    onError: (error, v) => toastStockWriteFailure(error, 'Failed to update quantity', (idempotencyKey) => mutation.mutate({ ...v, idempotencyKey, keepalive: false })),
  });
  return mutation;
}
