/**
 * Refuses state-changing API requests sent by pages of another site (cross-site request forgery;
 * docs/decisions/014-origins-sessions-accounts.md). Session cookies are SameSite=Lax, which
 * leaves sibling subdomains (same site, other origin) and older browsers able to send a victim's
 * cookie with a bodiless POST such as the plus and minus buttons.
 *
 * Rule, for POST, PUT, PATCH and DELETE under /api/ (the Stripe webhook excepted: Stripe's
 * servers call it, and it is authenticated by its signature, not by a cookie):
 * - an `Origin` header must be one of the app's own origins (`trustedOrigins`): anything else,
 *   `null` included, is refused;
 * - without `Origin`, a `Sec-Fetch-Site` of `cross-site` or `same-site` is refused;
 * - with neither header (curl, scripts, server-to-server calls) the request goes on: no browser
 *   sent it, so no victim's cookie rides along.
 * Refusals throw AppError FORBIDDEN (403).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Signed by Stripe and called from its servers: no browser, no cookie. */
const EXEMPT_PATHS = new Set(['/api/billing/webhook']);

/** `Sec-Fetch-Site` values of requests started by a page of another origin's site or another site. */
const FOREIGN_FETCH_SITES = new Set(['cross-site', 'same-site']);

/**
 * The app's own origins: the origin of `appUrl` (APP_URL) plus its localhost/127.0.0.1 twin, so a
 * server opened by either loopback name works. The same list is better-auth's `trustedOrigins`.
 * A LAN or proxy address is trusted only by making it APP_URL (which the email links need too).
 */
export function trustedOrigins(appUrl: string): string[] {
  const url = new URL(appUrl);
  const origins = new Set([url.origin]);
  if (url.hostname === 'localhost') origins.add(url.origin.replace('localhost', '127.0.0.1'));
  if (url.hostname === '127.0.0.1') origins.add(url.origin.replace('127.0.0.1', 'localhost'));
  return [...origins];
}

/**
 * Builds the Fastify onRequest hook that applies the rule above for the app served at `appUrl`.
 * @throws AppError FORBIDDEN (403) for a state-changing request from a foreign origin.
 */
export function originGuard(appUrl: string) {
  const allowed = new Set(trustedOrigins(appUrl));
  return async function refuseForeignOrigins(request: FastifyRequest): Promise<void> {
    if (!STATE_CHANGING.has(request.method)) return;
    const path = request.url.split('?')[0]!;
    if (!path.startsWith('/api/') || EXEMPT_PATHS.has(path)) return;
    const origin = request.headers.origin;
    const foreign = origin !== undefined ? !allowed.has(origin) : FOREIGN_FETCH_SITES.has(String(request.headers['sec-fetch-site']));
    if (foreign) throw new AppError('FORBIDDEN', 'This request came from another site and was refused');
  };
}
