/**
 * POST /api/units/:id/movements/reverse — Undo: the reverse of stock changes of a unit, all or
 * none (docs/product.md "Stock movements and statuses"). Every stock change of Unit detail and
 * every delivery of a pick list offers it in its toast for a few seconds.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unit, type Unit } from '../../common/contracts/stock';
import { toastWithUndo } from './ui/toasts';
import { actionErrorMessage } from '../lib/api-error';
import { apiFetch } from '../lib/api-fetch';
import { unitQuery } from '../lib/queries/get-unit';
import { invalidateStock } from '../lib/stock-cache';

/** Reverses the changes. @throws ApiError, NOT_FOUND; CONFLICT when one can no longer be undone */
export function reverseStockChanges({ unitId, movementIds }: { unitId: string; movementIds: string[] }): Promise<Unit> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/movements/reverse`, {
    method: 'POST',
    idempotencyKey: true,
    body: { movement_ids: movementIds },
    schema: unit,
  });
}

/** The Undo mutation; the unit's page shows the stock as the server answers it. */
export function useReverseStockChanges() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reverseStockChanges,
    onSuccess: async (answer) => {
      queryClient.setQueryData(unitQuery(answer.id).queryKey, answer);
      toast.success('Change undone');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to undo the change')),
  });
}

/**
 * The toast of a stock change: `message` with Undo when the change wrote something to undo
 * (`movementIds`), else a plain success; `warning` when part of it could not be done. `onUndone`
 * runs once Undo has succeeded (a pick list shows a delivered property as open again).
 */
export function useStockChangeToast() {
  const reverse = useReverseStockChanges();
  return (message: string, unitId: string, movementIds: string[], warning = false, onUndone?: () => void) => {
    if (movementIds.length > 0) toastWithUndo(message, () => reverse.mutate({ unitId, movementIds }, { onSuccess: onUndone }), warning);
    else if (warning) toast.error(message);
    else toast.success(message);
  };
}
