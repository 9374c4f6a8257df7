/** The toast text for a failed checkout or portal request (docs/product.md "Messages", Subscription gate). */
import { ApiError } from '../../lib/api-error';

/**
 * The server's own message whenever it gave a reason — including the 503 'Billing is not
 * configured on this server' and the 502 'Failed to create checkout session' of the payment
 * provider, which say more than the fallback — otherwise the screen's fixed `fallback`
 * ('Failed to start checkout process', 'Failed to open subscription portal').
 */
export function billingErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  // No answer, an answer of the wrong shape, a crash, or a session that ended: nothing to add.
  if (error.code === 'NETWORK_ERROR' || error.code === 'UNEXPECTED_RESPONSE' || error.code === 'INTERNAL' || error.code === 'UNAUTHENTICATED') {
    return fallback;
  }
  return error.message;
}
