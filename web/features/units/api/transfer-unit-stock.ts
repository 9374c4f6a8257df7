/**
 * POST /api/units/:id/inventory/:itemId/transfer — n moved from the unit's garage in one transfer:
 * plus taps sent together (their changes are kept by use-stock-taps.ts), restock by quantity, and
 * Add Manually from the garage (which opens the
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
  /** Retry of a change the network failed to send: its Idempotency-Key (stock-write.ts). */
  idempotencyKey?: string;
}

/** The route's path for the stock row of `itemId` at unit `unitId`. */
export const transferPath = (unitId: string, itemId: string): string =>
  `/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}/transfer`;

/** Moves the stock. @throws ApiError, 404; CONFLICT when the garage holds less or the unit has none */
export function transferUnitStock({ unitId, itemId, quantity, itemName, garageName, idempotencyKey }: TransferUnitStockVariables): Promise<StockMoveResult> {
  return sendStockWrite(
    transferPath(unitId, itemId),
    { body: { quantity }, schema: stockMoveResult, idempotencyKey },
    { kind: 'restock', label: movedFromGarage(quantity, itemName, garageName), href: `/unit/${unitId}` },
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
    // Retry sends the same change again, with its key.
    onError: (error, v) => toastStockWriteFailure(error, 'Failed to update quantity', (idempotencyKey) => mutation.mutate({ ...v, idempotencyKey })),
  });
  return mutation;
}
