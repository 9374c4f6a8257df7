/**
 * Reads, once the signed-in app has shown its first screen and the browser is idle, the items
 * list that the Count screen needs besides the place's stock (docs/decisions/048-offline-reads.md):
 * a cleaner who opened a unit at home and taps Count in the cottage finds it kept on the device.
 * The screens' code needs no such care: the service worker precaches it (decision 046).
 */
import type { QueryClient } from '@tanstack/react-query';

/** How long to wait for an idle moment before reading anyway, in milliseconds. */
const IDLE_TIMEOUT_MS = 5000;

/**
 * Reads the items list when the browser is next idle; a failure is ignored (this only prepares).
 * @returns a function that cancels the read if it has not started.
 */
export function warmUpOfflineScreens(queryClient: QueryClient): () => void {
  const run = () => {
    // Without the query's toast text: a read the user did not ask for does not report its failures.
    void import('../../lib/queries/get-items')
      .then(({ itemsQuery }) => queryClient.prefetchQuery({ ...itemsQuery, meta: {} }))
      .catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, IDLE_TIMEOUT_MS);
  return () => clearTimeout(id);
}
