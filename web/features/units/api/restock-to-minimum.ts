/**
 * POST /api/units/:id/restock-to-minimum — "Restock to minimum" for the whole unit, or one row
 * (`itemId`): every row below its item's minimum threshold gets what it lacks from the garage, as
 * far as the garage holds; the toast says what moved and what the garage could not cover.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restockToMinimumResult, type RestockToMinimumResult } from '../../../../common/contracts/stock';
import { sendStockWrite } from '../../../lib/stock-write';
import { toastStockWriteFailure } from '../../../components/kept-change-toast';
import { invalidateStock } from '../../../lib/stock-cache';
import { restockToMinimumMessage } from '../stock-messages';
import { useStockChangeToast } from '../../../components/stock-change-toast';

/** Fills the rows. @throws ApiError, 404; CONFLICT 'No garage assigned to this unit' */
export function restockToMinimum({ unitId, itemId, label, idempotencyKey }: { unitId: string; itemId?: string; label: string; idempotencyKey?: string }): Promise<RestockToMinimumResult> {
  return sendStockWrite(
    `/api/units/${encodeURIComponent(unitId)}/restock-to-minimum`,
    { body: itemId ? { item_id: itemId } : {}, schema: restockToMinimumResult, idempotencyKey },
    { kind: 'fill-to-minimum', label, href: `/unit/${unitId}` },
  );
}

/** The Restock to minimum mutation; the unit is read again, since several rows may have changed. */
export function useRestockToMinimum() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  const mutation = useMutation({
    mutationFn: restockToMinimum,
    onSuccess: async (result, { unitId }) => {
      const message = restockToMinimumMessage(result);
      toastChange(message.text, unitId, result.movement_ids, message.short);
      await invalidateStock(queryClient);
    },
    // Retry sends the same change again, with its key.
    onError: (error, v) => toastStockWriteFailure(error, 'Failed to update quantity', (idempotencyKey) => mutation.mutate({ ...v, idempotencyKey })),
  });
  return mutation;
}
