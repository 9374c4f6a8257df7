/**
 * POST /api/units/:id/movements/reverse — Undo: the reverse of stock changes of a unit, all or
 * none (docs/product.md "Stock movements and statuses"). Every stock change of Unit detail and
 * every delivery of a pick list offers it in its toast for a few seconds.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { unit, type Unit } from '../../common/contracts/stock';
import { toastWithUndo } from './ui/toasts';
import { unitQuery } from '../lib/queries/get-unit';
import { invalidateStock } from '../lib/stock-cache';
import { sendStockWrite } from '../lib/stock-write';
import { toastStockWriteFailure } from './kept-change-toast';

interface ReverseVariables {
  unitId: string;
  movementIds: string[];
  /** What is undone, in the toast's words: '3 Bath Towel moved from Main Storage'. */
  label: string;
  /** Retry of an Undo the network failed to send: its Idempotency-Key (stock-write.ts). */
  idempotencyKey?: string;
}

/**
 * Reverses the changes, kept on the phone until answered like every stock write (stock-write.ts).
 * @throws ChangeKept when kept to be sent later; ApiError, NOT_FOUND; CONFLICT when one can no longer be undone
 */
export function reverseStockChanges({ unitId, movementIds, label, idempotencyKey }: ReverseVariables): Promise<Unit> {
  return sendStockWrite(
    `/api/units/${encodeURIComponent(unitId)}/movements/reverse`,
    { body: { movement_ids: movementIds }, schema: unit, idempotencyKey },
    { kind: 'undo', label: `Undo: ${label}`, href: `/unit/${unitId}` },
  );
}

/** The Undo mutation; the unit's page shows the stock as the server answers it. */
export function useReverseStockChanges() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: reverseStockChanges,
    onSuccess: async (answer) => {
      queryClient.setQueryData(unitQuery(answer.id).queryKey, answer);
      toast.success('Change undone');
      await invalidateStock(queryClient);
    },
    onError: (error, v) => toastStockWriteFailure(error, 'Failed to undo the change', (idempotencyKey) => mutation.mutate({ ...v, idempotencyKey })),
  });
  return mutation;
}

/**
 * The toast of a stock change: `message` with Undo when the change wrote something to undo
 * (`movementIds`), else a plain success; `warning` when part of it could not be done. `onUndone`
 * runs once Undo has succeeded (a pick list shows a delivered property as open again).
 */
export function useStockChangeToast() {
  const reverse = useReverseStockChanges();
  return (message: string, unitId: string, movementIds: string[], warning = false, onUndone?: () => void) => {
    if (movementIds.length > 0) toastWithUndo(message, () => reverse.mutate({ unitId, movementIds, label: message }, { onSuccess: onUndone }), warning);
    else if (warning) toast.error(message);
    else toast.success(message);
  };
}
