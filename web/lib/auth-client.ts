/**
 * The better-auth client for the server's /api/auth endpoints (sign-up, sign-in, sign-out,
 * session). Sessions live in an httpOnly cookie set by the server.
 */
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({ baseURL: window.location.origin });

/**
 * Asks the auth client to re-read the session, e.g. after an API call answered 401; when the
 * session is gone the route guards send the user to /login.
 */
export function recheckSession(): void {
  authClient.$store.notify('$sessionSignal');
}
