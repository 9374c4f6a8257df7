/**
 * The id of the signed-in user as the screens last showed it, for code outside React: a stock
 * write keeps its change for that user from its first tap, before the outbox has started
 * (web/lib/stock-write.ts). Written by useAuthState (use-auth-state.ts) as it reads the session;
 * kept apart from it so that the stock writes do not load the auth client.
 */

let currentUserId: string | null = null;

/** The id of the signed-in user (the last one read, offline), or null when nobody is. */
export function signedInUserId(): string | null {
  return currentUserId;
}

/** Records who the screens show as signed in (null: nobody). */
export function setSignedInUserId(id: string | null): void {
  currentUserId = id;
}
