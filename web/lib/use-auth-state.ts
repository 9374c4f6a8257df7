/** The signed-in state as the route guards need it, from better-auth's session store. */
import { authClient } from './auth-client';

export type AuthState =
  | { status: 'loading' }
  /** `ended`: a session this page had is gone without a sign-out here (ended or removed elsewhere). */
  | { status: 'signed-out'; ended: boolean }
  | { status: 'signed-in'; user: { id: string; email: string } };

// Whether this page has seen a signed-in session, and whether its end is a sign-out asked for here.
let hadSession = false;
let signingOut = false;

/** Called before a sign-out asked for on this page: its end is expected, not reported. */
export function expectSignOut(): void {
  signingOut = true;
}

// The session store reports "pending" again whenever it re-reads a missing session (window
// focus, sign-in). Only the first read may show the loading spinner: later ones must not unmount
// a half-filled sign-in form. The flag only ever turns on, so setting it during render is safe.
let firstReadDone = false;

/** Returns loading until the first session read finishes, then signed-in or signed-out. */
export function useAuthState(): AuthState {
  const { data, isPending } = authClient.useSession();
  if (!isPending) firstReadDone = true;
  if (data) {
    // signingOut stays set: a session read started before the sign-out may still answer with data.
    hadSession = true;
    return { status: 'signed-in', user: { id: data.user.id, email: data.user.email } };
  }
  if (isPending && !firstReadDone) return { status: 'loading' };
  const ended = hadSession && !signingOut;
  if (signingOut) {
    // The sign-out asked for here has happened: the next session starts afresh.
    hadSession = false;
    signingOut = false;
  }
  return { status: 'signed-out', ended };
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
