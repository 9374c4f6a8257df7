/**
 * When an open delivery log is read again: while a delivery waits for an attempt, shortly after
 * its attempt is due (a test event or a Resend is due at once), so its outcome shows without a
 * reload; never while nothing is pending. Retries can be hours apart (the Standard Webhooks
 * schedule, docs/product.md "Webhooks"), so the log is read at least once a minute meanwhile.
 */
import type { WebhookDelivery } from '../../../common/contracts/webhooks';

/** The shortest pause between two reads, in milliseconds: the time a due attempt takes to be made and answered. */
export const LOG_REFRESH_MIN_MS = 5_000;

/** The longest pause while a delivery is pending, in milliseconds. */
export const LOG_REFRESH_MAX_MS = 60_000;

/**
 * Milliseconds until the log of `deliveries` is read again at `now`, or false when none is pending.
 * A pending delivery without a due time counts as due now.
 */
export function logRefreshDelay(deliveries: readonly Pick<WebhookDelivery, 'status' | 'next_attempt_at'>[], now: Date): number | false {
  const due = deliveries.filter((d) => d.status === 'pending').map((d) => (d.next_attempt_at ? Date.parse(d.next_attempt_at) : now.getTime()));
  if (due.length === 0) return false;
  const wait = Math.min(...due) - now.getTime() + LOG_REFRESH_MIN_MS;
  return Math.min(LOG_REFRESH_MAX_MS, Math.max(LOG_REFRESH_MIN_MS, wait));
}
