/**
 * The minus and plus of one stock row of Unit detail (docs/product.md "Screens: Unit detail"), by
 * the rules of stock-taps.ts: every tap changes the number at once and is kept on the phone as it
 * is shown; taps add up in one kept change and go to the server when they pause (a transfer of n
 * from the garage, or n used), and the number settles on the server's answer. A page closed right
 * after a tap leaves the change kept; the next page sends it (web/lib/outbox/outbox.ts).
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { stockMoveResult, type Unit, type UnitStockRow } from '../../../common/contracts/stock';
import { toastKept } from '../../components/kept-change-toast';
import { useStockChangeToast } from '../../components/stock-change-toast';
import { actionErrorMessage } from '../../lib/api-error';
import { validated } from '../../lib/api-fetch';
import type { PendingChange } from '../../lib/outbox/pending-change';
import { addToTally, isTallyBusy, pendingTallies, pendingTally, subscribeOutbox, type ChangeContent, type SendResult } from '../../lib/outbox/outbox';
import { unitQuery } from '../../lib/queries/get-unit';
import { wantOutbox } from '../../lib/outbox/outbox-demand';
import { useSignedInUser } from '../../lib/use-auth-state';
import { consumePath } from './api/consume-unit-stock';
import { transferPath } from './api/transfer-unit-stock';
import { movedFromGarage, usedAtUnit } from './stock-messages';
import { checkTap, tapChange, TAP_PAUSE_MS } from './stock-taps';
import { recordStockChange, setRowQuantity } from './unit-stock';

// The outbox sends the taps, and reads what earlier pages left, from this screen's first tap.
wantOutbox();

/**
 * The taps of `row` of `unit`; `garageQuantity` is what the unit's garage holds of the item
 * (undefined when not known). Returns `tap(+1 | -1)` and `busy`, true while this page's taps add
 * up or are on their way (the row cannot be removed meanwhile).
 */
export function useStockTaps(unit: Unit, row: UnitStockRow, garageQuantity: number | undefined) {
  const queryClient = useQueryClient();
  const userId = useSignedInUser().id;
  const toastChange = useStockChangeToast();
  const unitId = unit.id;
  const itemId = row.item_id;
  const group = `taps:${unitId}:${itemId}`;
  const busy = useSyncExternalStore(subscribeOutbox, () => isTallyBusy(group));
  // What the callbacks below read when they run, which may be after this render.
  const current = useRef({ unit, row, garageQuantity, toastChange });
  useEffect(() => {
    current.current = { unit, row, garageQuantity, toastChange };
  });

  const shown = useCallback(
    () => queryClient.getQueryData(unitQuery(unitId).queryKey)?.inventory.find((r) => r.item_id === itemId)?.quantity ?? 0,
    [queryClient, unitId, itemId],
  );
  const show = useCallback(
    (quantity: number) =>
      queryClient.setQueryData(unitQuery(unitId).queryKey, (cached) => (cached ? setRowQuantity(cached, itemId, quantity) : cached)),
    [queryClient, unitId, itemId],
  );

  /** The change for taps adding up to `count`, in the words and at the route of the row. */
  const describe = useCallback(
    (count: number): ChangeContent | null => {
      const change = tapChange(count);
      if (!change) return null;
      const { unit: u, row: r } = current.current;
      const href = `/unit/${u.id}`;
      return change.kind === 'transfer'
        ? { kind: 'taps', path: transferPath(u.id, r.item_id), body: { quantity: change.quantity }, label: movedFromGarage(change.quantity, r.item_name, u.garage?.name ?? 'the garage'), href }
        : { kind: 'taps', path: consumePath(u.id, r.item_id), body: { quantity: change.quantity }, label: usedAtUnit(change.quantity, r.item_name), href };
    },
    [],
  );

  /** What the server made of a kept change of taps: the number shown follows it, and its toast says it in its own words. */
  const settled = useCallback(
    (change: PendingChange, result: SendResult) => {
      const count = change.tally!.count;
      // Kept to be sent later: it stays shown as made, and the toast says it waits for the network.
      if ('kept' in result) return toastKept();
      let answer;
      try {
        if ('error' in result) throw result.error;
        answer = validated(stockMoveResult, result.answer);
      } catch (error) {
        show(shown() - count);
        toast.error(actionErrorMessage(error, 'Failed to update quantity'));
        return;
      }
      // The server's number, plus the taps it has not answered yet.
      void recordStockChange(queryClient, unitId, itemId, answer, pendingTally(group, change.id));
      // A use that wrote nothing: the unit had nothing left (someone else used it meanwhile).
      if (answer.movement_ids.length > 0) current.current.toastChange(change.label, unitId, answer.movement_ids);
    },
    [queryClient, unitId, itemId, group, show, shown],
  );

  const tap = useCallback(
    (step: 1 | -1) => {
      const before = shown();
      const { sent, open } = pendingTallies(group);
      const verdict = checkTap(step, before, current.current.garageQuantity, sent, open);
      if (verdict === 'nothing_to_use') return;
      if (verdict === 'garage_empty') {
        toast.error('Not enough stock available in garage', { id: 'garage-empty' });
        return;
      }
      // A read of the unit landing now would overwrite the taps with the old number.
      void queryClient.cancelQueries({ queryKey: unitQuery(unitId).queryKey, exact: true });
      show(before + step);
      addToTally(userId, group, step, describe, TAP_PAUSE_MS, (result, change) => settled(change, result));
    },
    [queryClient, unitId, group, userId, shown, show, describe, settled],
  );

  return { tap, busy };
}
