/** Sign-out (better-auth POST /api/auth/sign-out). */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clearOfflineCache } from '../../../lib/offline-cache/offline-cache';
import { authClient } from '../../../lib/auth-client';
import { expectSignOut } from '../../../lib/use-auth-state';
import { runAuthCall } from './auth-request-error';

/** Ends the session on the server; the server clears the cookie. */
export function signOut(): Promise<void> {
  return runAuthCall(() => authClient.signOut());
}

/**
 * Returns a function that signs out, forgets all cached data — the data kept on the device for
 * offline reading first, before the network is asked anything (docs/decisions/048-offline-reads.md)
 * — and re-reads the session. A failed sign-out call is only logged: the local state is cleared
 * regardless.
 */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const { refetch } = authClient.useSession();
  return useCallback(async () => {
    expectSignOut();
    await clearOfflineCache();
    try {
      await signOut();
    } catch (error) {
      console.error(error);
    }
    queryClient.clear();
    await refetch();
  }, [queryClient, refetch]);
}
