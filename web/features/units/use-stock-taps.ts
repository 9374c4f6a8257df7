/**
 * The minus and plus of one stock row of Unit detail (docs/product.md "Screens: Unit detail"), by
 * the rules of stock-taps.ts: every tap changes the number at once, taps go to the server together
 * when they pause (a transfer of n from the garage, or n used), and the number settles on the
 * server's answer. Taps waiting when the screen or the page is left are sent then.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { Unit, UnitStockRow } from '../../../common/contracts/stock';
import { unitQuery } from '../../lib/queries/get-unit';
import { isChangeKept } from '../../lib/stock-write';
import { useConsumeUnitStock } from './api/consume-unit-stock';
import { useTransferUnitStock } from './api/transfer-unit-stock';
import { addTap, noTaps, settle, takeBatch, TAP_PAUSE_MS } from './stock-taps';
import { setRowQuantity } from './unit-stock';

/**
 * The taps of `row` of `unit`; `garageQuantity` is what the unit's garage holds of the item
 * (undefined when not known). Returns `tap(+1 | -1)` and `busy`, true while taps wait or are on
 * their way (the row cannot be removed meanwhile).
 */
export function useStockTaps(unit: Unit, row: UnitStockRow, garageQuantity: number | undefined) {
  const queryClient = useQueryClient();
  const transfer = useTransferUnitStock();
  const consume = useConsumeUnitStock();
  const taps = useRef(noTaps);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // What the callbacks below read when they run, which may be after this render.
  const current = useRef({ unit, row, garageQuantity, transfer: transfer.mutateAsync, consume: consume.mutateAsync });
  useEffect(() => {
    current.current = { unit, row, garageQuantity, transfer: transfer.mutateAsync, consume: consume.mutateAsync };
  });

  const unitId = unit.id;
  const itemId = row.item_id;
  const shown = useCallback(
    () => queryClient.getQueryData(unitQuery(unitId).queryKey)?.inventory.find((r) => r.item_id === itemId)?.quantity ?? 0,
    [queryClient, unitId, itemId],
  );
  const show = useCallback(
    (quantity: number) =>
      queryClient.setQueryData(unitQuery(unitId).queryKey, (cached) => (cached ? setRowQuantity(cached, itemId, quantity) : cached)),
    [queryClient, unitId, itemId],
  );

  /** Sends the waiting taps; `leaving`: the page is being left, so at once and past its end. */
  const send = useCallback((leaving = false) => {
    const batch = takeBatch(taps.current, leaving);
    if (!batch) return;
    taps.current = batch.taps;
    const { unit: u, row: r, transfer: move, consume: use } = current.current;
    const variables = { unitId: u.id, itemId: r.item_id, quantity: batch.change.quantity, itemName: r.item_name, keepalive: leaving };
    const request = batch.change.kind === 'transfer' ? move({ ...variables, garageName: u.garage?.name ?? 'the garage' }) : use(variables);
    const finish = (answered: number | null) => {
      const next = settle(taps.current, shown(), answered);
      taps.current = next.taps;
      show(next.shown);
      if (next.taps.waiting !== 0) timer.current = setTimeout(() => send(), TAP_PAUSE_MS);
      else setBusy(false);
    };
    // The mutations report failures themselves. A change kept on the phone (offline) stays shown
    // as made: its number is the one shown without the taps still waiting.
    request.then(
      (result) => finish(result.unit_quantity),
      (error: unknown) => finish(isChangeKept(error) ? shown() - taps.current.waiting : null),
    );
  }, [shown, show]);

  const tap = useCallback(
    (step: 1 | -1) => {
      const before = shown();
      const next = addTap(taps.current, step, before, current.current.garageQuantity);
      if (next === 'nothing_to_use') return;
      if (next === 'garage_empty') {
        toast.error('Not enough stock available in garage', { id: 'garage-empty' });
        return;
      }
      taps.current = next;
      // A read of the unit landing now would overwrite the taps with the old number.
      void queryClient.cancelQueries({ queryKey: unitQuery(unitId).queryKey, exact: true });
      show(before + step);
      setBusy(true);
      clearTimeout(timer.current);
      if (taps.current.sending === 0) timer.current = setTimeout(() => send(), TAP_PAUSE_MS);
    },
    [queryClient, unitId, shown, show, send],
  );

  // Taps still waiting when the screen or the page is left are sent at once: leaving the screen
  // unmounts the row; a phone locked, another app or tab, or a page load hides the page first.
  useEffect(() => {
    const leave = () => {
      clearTimeout(timer.current);
      send(true);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', onVisibility);
      leave();
    };
  }, [send]);

  return { tap, busy };
}
