/**
 * POST /api/units/:id/pick-list/deliver — "Mark as delivered": the lines taken to one property,
 * moved from its garage as restock transfers, all or none (docs/product.md "Screens: Pick list").
 * The toast offers Undo, like every stock change of Unit detail.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deliverPickListResult, type DeliverPickListResult } from '../../../../common/contracts/forecast';
import { useStockChangeToast } from '../../../components/stock-change-toast';
import { sendStockWrite } from '../../../lib/stock-write';
import { invalidateStock } from '../../../lib/stock-cache';
import { deliveredMessage } from '../pick-list';

export interface DeliverPickListInput {
  unitId: string;
  unitName: string;
  /** The lines to move, each with its item's name for the toast. */
  lines: { item_id: string; item_name: string; quantity: number }[];
  /** Runs when the toast's Undo has reversed the delivery. */
  onUndone?: () => void;
}

/**
 * Delivers the lines. @throws ApiError, NOT_FOUND; CONFLICT with the server's reason when the
 * garage lacks stock or the property has no garage (nothing moved)
 */
export function deliverPickList({ unitId, unitName, lines }: DeliverPickListInput): Promise<DeliverPickListResult> {
  const pieces = lines.reduce((sum, line) => sum + line.quantity, 0);
  return sendStockWrite(
    `/api/units/${encodeURIComponent(unitId)}/pick-list/deliver`,
    { body: { lines: lines.map(({ item_id, quantity }) => ({ item_id, quantity })) }, schema: deliverPickListResult },
    { kind: 'pick-list-delivery', label: `Pick list delivered to ${unitName}: ${pieces} ${pieces === 1 ? 'piece' : 'pieces'}`, href: `/unit/${unitId}` },
  );
}

/**
 * The delivery mutation: a toast with Undo, then every stock view and the pick list read again.
 * A failure has no toast: the confirmation dialog shows the server's reason, or the fallback.
 */
export function useDeliverPickList() {
  const queryClient = useQueryClient();
  const toastChange = useStockChangeToast();
  return useMutation({
    mutationFn: deliverPickList,
    onSuccess: async (result, { unitId, unitName, lines, onUndone }) => {
      const names = new Map(lines.map((line) => [line.item_id, line.item_name]));
      toastChange(deliveredMessage(unitName, result.delivered, names), unitId, result.movement_ids, false, onUndone);
      await invalidateStock(queryClient);
    },
  });
}
