/**
 * The better-auth client for the server's /api/auth endpoints (sign-up, sign-in, sign-out,
 * session). Sessions live in an httpOnly cookie set by the server. Its first session read takes
 * the answer index.html's first-screens script already requested, when there is one (decision 016).
 */
import { createAuthClient } from 'better-auth/react';
import { fetchWithFirstScreenRequests } from './first-screen-requests';

export const authClient = createAuthClient({ baseURL: window.location.origin, fetchOptions: { customFetchImpl: fetchWithFirstScreenRequests } });

/**
 * Asks the auth client to re-read the session, e.g. after an API call answered 401; when the
 * session is gone the route guards send the user to /login. The session is read from the server
 * past the signed copy in the cookie (decision 006), which would still vouch for a session ended
 * elsewhere (a removal from the company, a sign-out on another device): the server then clears
 * the cookies, and the next read finds none.
 */
export function recheckSession(): void {
  void authClient
    .getSession({ query: { disableCookieCache: true } })
    .catch(() => undefined)
    .finally(() => authClient.$store.notify('$sessionSignal'));
}
