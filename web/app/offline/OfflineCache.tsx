/**
 * Ties the data kept for offline reading (offline-cache.ts) to the session: kept for the signed-in
 * user the guards see (useAuthState: offline, the last user this browser read), from the moment
 * there is one; deleted when the server says nobody is signed in (a sign-out here, or a session
 * that ended or expired elsewhere, seen at the next session read). A session that cannot be read
 * for want of a network deletes nothing: that is when the kept data is needed.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { authClient } from '../../lib/auth-client';
import { firstScreenSettled } from '../../lib/first-screen-settled';
import { useAuthState } from '../../lib/use-auth-state';
import { offlineCacheMayExist } from '../../lib/offline-cache/offline-cache-marker';

const loadOfflineCache = () => import('../../lib/offline-cache/offline-cache');

/** Renders nothing; keeps or deletes the offline data as the session changes. */
export function OfflineCache() {
  const queryClient = useQueryClient();
  const auth = useAuthState();
  const userId = auth.status === 'signed-in' ? auth.user.id : undefined;
  const { data, error, isPending } = authClient.useSession();
  // The server answered without a session (no session, or 401): not a network failure.
  const signedOut = !isPending && !data && (!error || error.status === 401);

  useEffect(() => {
    if (!userId) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    // Online, after the first screen (offline at once: then the kept data is the screen's).
    firstScreenSettled()
      .then(loadOfflineCache)
      .then(({ startOfflineCache }) => {
        if (!cancelled) stop = startOfflineCache(queryClient, userId).stop;
      })
      .catch((cause: unknown) => console.error(cause));
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, userId]);

  useEffect(() => {
    // The storage code loads only when something may be kept: most visits to /login keep nothing.
    if (!signedOut || !offlineCacheMayExist()) return;
    loadOfflineCache()
      .then(({ clearOfflineCache }) => clearOfflineCache())
      .catch((cause: unknown) => console.error(cause));
  }, [signedOut]);

  return null;
}
