/**
 * The signed-in state as the route guards need it, from better-auth's session store. Offline
 * (docs/product.md "Offline use"), a session that cannot be read for want of a network is taken
 * to be the last one this browser read, so the screens kept for offline reading and the changes
 * kept on the phone stay reachable; the server checks the session again on the next request.
 */
import { authClient } from './auth-client';
import { setSignedInUserId } from './signed-in-user';

export type AuthState =
  | { status: 'loading' }
  /** `ended`: a session this page had is gone without a sign-out here (ended or removed elsewhere). */
  | { status: 'signed-out'; ended: boolean }
  /** `offline`: the session could not be read for want of a network; `user` is the last one read. */
  | { status: 'signed-in'; user: { id: string; email: string }; offline?: boolean };

/** localStorage key of the last signed-in user read from the server ({ id, email } as JSON). */
const LAST_USER_KEY = 'stock-keeper:last-user';

function rememberUser(user: { id: string; email: string }): void {
  try {
    if (localStorage.getItem(LAST_USER_KEY) !== JSON.stringify(user)) localStorage.setItem(LAST_USER_KEY, JSON.stringify({ id: user.id, email: user.email }));
  } catch {
    // Storage refused (private mode, full): offline, the app then shows sign-in.
  }
}

function forgetUser(): void {
  try {
    localStorage.removeItem(LAST_USER_KEY);
  } catch {
    // As above.
  }
}

/** The last signed-in user read on this browser, or null. */
function lastUser(): { id: string; email: string } | null {
  try {
    const stored = JSON.parse(localStorage.getItem(LAST_USER_KEY) ?? 'null') as { id?: unknown; email?: unknown } | null;
    return typeof stored?.id === 'string' && typeof stored.email === 'string' ? { id: stored.id, email: stored.email } : null;
  } catch {
    return null;
  }
}

// Whether this page has seen a signed-in session, and whether its end is a sign-out asked for here.
let hadSession = false;
let signingOut = false;

/** Called before a sign-out asked for on this page: its end is expected, not reported. */
export function expectSignOut(): void {
  signingOut = true;
  forgetUser();
}

// The session store reports "pending" again whenever it re-reads a missing session (window
// focus, sign-in). Only the first read may show the loading spinner: later ones must not unmount
// a half-filled sign-in form. The flag only ever turns on, so setting it during render is safe.
let firstReadDone = false;

/** Returns loading until the first session read finishes, then signed-in or signed-out. */
export function useAuthState(): AuthState {
  const { data, isPending, error } = authClient.useSession();
  if (!isPending) firstReadDone = true;
  if (data) {
    // signingOut stays set: a session read started before the sign-out may still answer with data.
    hadSession = true;
    const user = { id: data.user.id, email: data.user.email };
    setSignedInUserId(user.id);
    if (!signingOut) rememberUser(user);
    return { status: 'signed-in', user };
  }
  // No answer from the server at all (status 0 or none): the network, not the session, is gone.
  const unreachable = error != null && !error.status;
  const remembered = unreachable && !signingOut ? lastUser() : null;
  // A session being read again keeps the user it had; only an answer without one clears it.
  if (remembered || !isPending) setSignedInUserId(remembered?.id ?? null);
  if (remembered) return { status: 'signed-in', user: remembered, offline: true };
  // The server said nobody is signed in: the last user is forgotten.
  if (!isPending && !error) forgetUser();
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
