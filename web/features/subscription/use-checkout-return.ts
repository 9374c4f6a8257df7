/**
 * The return from the payment provider's checkout page (docs/product.md "Screens: Subscription"):
 * /subscription?success=true or ?canceled=true. Says how it went, refreshes the status after a
 * success, and takes the flag out of the address so a reload does not say it again.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { subscriptionKey } from '../../lib/queries/subscription-key';

const SUCCESS_MESSAGE = 'Subscription updated successfully!';
const CANCELED_MESSAGE = 'Subscription update canceled';

/**
 * The provider tells the server by webhook, which may arrive after the browser is back; the
 * status is read again at these delays (ms) so the screen catches up without a reload.
 */
const RECHECK_DELAYS_MS = [2_000, 5_000, 10_000];

/** Handles the return flags of the current address; call it once on the Subscription screen. */
export function useCheckoutReturn(): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  // Live for the whole visit: cleaning the address re-runs the effect below, which must not
  // cancel the rechecks it has just planned.
  const [timers] = useState(() => new Set<number>());
  const succeeded = searchParams.get('success') === 'true';
  const canceled = searchParams.get('canceled') === 'true';

  useEffect(() => () => timers.forEach((timer) => window.clearTimeout(timer)), [timers]);

  useEffect(() => {
    if (!succeeded && !canceled) return;
    // The ids keep one toast when React runs this effect twice in development.
    if (succeeded) {
      toast.success(SUCCESS_MESSAGE, { id: SUCCESS_MESSAGE });
      const refresh = () => void queryClient.invalidateQueries({ queryKey: subscriptionKey });
      refresh();
      for (const delay of RECHECK_DELAYS_MS) timers.add(window.setTimeout(refresh, delay));
    } else {
      toast(CANCELED_MESSAGE, { id: CANCELED_MESSAGE });
    }
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('success');
        next.delete('canceled');
        return next;
      },
      { replace: true },
    );
  }, [succeeded, canceled, queryClient, setSearchParams, timers]);
}
