/** The signed-in state as the route guards need it, from better-auth's session store. */
import { authClient } from './auth-client';

export type AuthState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: { id: string; email: string } };

// The session store reports "pending" again whenever it re-reads a missing session (window
// focus, sign-in). Only the first read may show the loading spinner: later ones must not unmount
// a half-filled sign-in form. The flag only ever turns on, so setting it during render is safe.
let firstReadDone = false;

/** Returns loading until the first session read finishes, then signed-in or signed-out. */
export function useAuthState(): AuthState {
  const { data, isPending } = authClient.useSession();
  if (!isPending) firstReadDone = true;
  if (data) return { status: 'signed-in', user: { id: data.user.id, email: data.user.email } };
  return { status: isPending && !firstReadDone ? 'loading' : 'signed-out' };
}

/**
 * The signed-in user, for screens under the RequireAuth guard.
 * @throws Error when used where nobody is signed in (a wiring mistake).
 */
export function useSignedInUser(): { id: string; email: string } {
  const auth = useAuthState();
  if (auth.status !== 'signed-in') throw new Error('useSignedInUser needs a signed-in user (RequireAuth)');
  return auth.user;
}
