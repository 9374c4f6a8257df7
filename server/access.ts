/**
 * Access declared per route (docs/decisions/019-access-per-route.md): every /api route names in
 * its `config.access` who may call it, and one preHandler hook applies that before the handler
 * runs, in this order, each refusal with its code (common/errors.ts):
 *
 * 1. the signed-in user (UNAUTHENTICATED, 401), for every access but 'public';
 * 2. their company (NO_TENANT, 409), for a tenant access;
 * 3. the expired-trial gate (SUBSCRIPTION_REQUIRED, 402) with `gate: 'trial'`, and then the plan's
 *    `feature` (FORBIDDEN, 403): docs/product.md "Screens: Expired-trial gate", "Plans, trial and
 *    limits";
 * 4. the least role (FORBIDDEN, 403): docs/product.md "Roles", the matrix in common/permissions.ts.
 *
 * A request with `Authorization: Bearer <key>` is made with a company's API key
 * (docs/decisions/049-api-keys.md), whatever cookie it also carries: the key gives the tenant and
 * the role (modules/api-keys/service.ts `keyIdentity`, 401 for an unknown or revoked key), its
 * requests are counted per minute (RATE_LIMITED, 429), and it is refused (FORBIDDEN, 403) on
 * 'session' routes, on routes that declare `apiKeys: false` or an owner's role, and, for a
 * read-only key, on anything but the GET routes open to members; then the gate and the role apply
 * as above.
 *
 * Handlers read the result as `request.identity` ('session') or `request.who` (a tenant access)
 * and never resolve an identity or choose a gate themselves. The hook runs after the request's
 * input is validated, as the handlers' own checks did before it (a malformed body answers 400
 * whoever sends it). The app refuses to start when an /api route declares no access.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Feature } from '../common/contracts/billing';
import type { Role } from '../common/contracts/session';
import type { Db } from './db/client';
import { withTenant } from './db/tenant-tx';
import { coalesce } from './lib/coalesce';
import { AppError } from './lib/errors';
import type { Limits } from './lib/limits';
import { requireRole } from './lib/roles';
import type { Auth } from './modules/auth/auth';
import { bearerKey } from './modules/api-keys/key';
import { KEY_REFUSED_MESSAGE, keyIdentity } from './modules/api-keys/service';
import type { IdentityCache } from './modules/auth/identity-cache';
import { requireIdentity, requireTenant } from './modules/auth/session';
import type { ApiKeyActor, Identity, TenantIdentity } from './modules/auth/identity';
import { assertAccess } from './modules/billing/plans';

/**
 * A member of a company with at least `role`, and where the expired-trial gate is applied:
 * - 'trial': by the hook, before the handler; with `feature`, the plan must include it too;
 * - 'none': not at all (onboarding, billing, the dashboard work behind the gate).
 */
export type TenantAccess = ({ role: Role; gate: 'trial'; feature?: Feature } | { role: Role; gate: 'none' }) & {
  /**
   * false: a browser session only, never an API key (the keys themselves, a person's own settings,
   * the team). Routes of an owner's role are refused to keys without it.
   */
  apiKeys?: false;
};

/**
 * Who may call a route: 'public' anyone (sign-in, health, the API document, the signed Stripe
 * webhook); 'session' a signed-in user, with or without a company; else a TenantAccess.
 */
export type RouteAccess = 'public' | 'session' | TenantAccess;

/**
 * The route access of a company's connections to other systems (API keys, webhook endpoints;
 * docs/product.md "API keys", "Webhooks"), for `role` and up, from a browser session only (a key
 * never manages keys or endpoints): `create` is behind the expired-trial gate like inviting,
 * `manage` (list, change, stop, delete) is not, so a company whose trial ended can still see and
 * stop what reaches it. Used as a route's `config`.
 */
export function connectionAccess(role: Role): { create: { access: TenantAccess }; manage: { access: TenantAccess } } {
  return { create: { access: { role, gate: 'trial', apiKeys: false } }, manage: { access: { role, gate: 'none', apiKeys: false } } };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (server/access.ts); required on every /api route. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The signed-in user, on routes declaring 'session' or a tenant access. */
    readonly identity: Identity;
    /** The signed-in user with their company and role, on routes declaring a tenant access. */
    readonly who: TenantIdentity;
  }
}

export interface AccessOptions {
  auth: Auth;
  db: Db;
  /** The clock of the trial gate (tests move it). */
  now: () => Date;
  /** Identities of live sessions kept in memory (modules/auth/identity-cache.ts); without it each request reads its own. */
  identities?: IdentityCache;
  /**
   * Requests one API key may make per minute, counted in `limits` (every server together,
   * API_KEY_REQUESTS_PER_MINUTE); without it requests made with a key are not counted.
   */
  apiKeyLimit?: { limits: Limits; perMinute: number };
}

/** Refusal of a route a key may never call (403). */
export const KEY_NOT_ALLOWED_MESSAGE = 'API keys cannot be used for this request. Sign in to the app to do it.';
/** Refusal of a change, or of a route above a member's, to a read-only key (403). */
export const READ_ONLY_KEY_MESSAGE = "This API key is read-only: it can only read the company's records.";

/**
 * Whether a request made with an API key may ever call a route of `access`: not a public route
 * (it needs nobody), not 'session' routes, routes declaring `apiKeys: false` or an owner's role.
 * The API document names the bearer scheme on exactly these (lib/api-document.ts).
 */
export function keysAllowed(access: RouteAccess | undefined): boolean {
  return access !== undefined && access !== 'public' && access !== 'session' && access.apiKeys !== false && access.role !== 'owner';
}

/**
 * @throws AppError FORBIDDEN when a request made with `key` may not call a route of `access` with
 *   `method` (see the module comment).
 */
function refuseKey(access: 'session' | TenantAccess, method: string, key: ApiKeyActor): void {
  if (access === 'session' || !keysAllowed(access)) throw new AppError('FORBIDDEN', KEY_NOT_ALLOWED_MESSAGE);
  if (key.readOnly && ((method !== 'GET' && method !== 'HEAD') || access.role !== 'member')) throw new AppError('FORBIDDEN', READ_ONLY_KEY_MESSAGE);
}

const identified = new WeakMap<FastifyRequest, Identity>();
const members = new WeakMap<FastifyRequest, TenantIdentity>();

/** Reading an identity the route did not declare is a bug in the route: it fails loudly (500). */
function resolved<T>(store: WeakMap<FastifyRequest, T>, request: FastifyRequest, needs: string): T {
  const value = store.get(request);
  if (value === undefined) throw new Error(`${request.method} ${request.routeOptions.url} must declare ${needs} access to read it`);
  return value;
}

/**
 * Installs the access rule on `app` (the root instance, before any route is registered): the
 * request decorations, the preHandler hook, and the start-up check that every /api route
 * declares its access.
 * @throws from `app.ready()`: Error naming the /api routes without `config.access`.
 */
export function installAccess(app: FastifyInstance, { auth, db, now, identities, apiKeyLimit }: AccessOptions): void {
  app.decorateRequest('identity', {
    getter(this: FastifyRequest) {
      return resolved(identified, this, "'session' or a tenant");
    },
  });
  app.decorateRequest('who', {
    getter(this: FastifyRequest) {
      return resolved(members, this, 'a tenant');
    },
  });

  // Checked once every route is in: a plugin's routes get their access from an onRoute hook of
  // the scope that registers them (the API document's), which runs after this one.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.addHook('onReady', async () => {
    const undeclared = routes
      .filter((r) => r.url.startsWith('/api/') && r.config?.access === undefined)
      .map((r) => `${[r.method].flat().join(',')} ${r.url}`);
    if (undeclared.length > 0) {
      throw new Error(`Routes without a declared access (docs/decisions/019-access-per-route.md): ${undeclared.join('; ')}`);
    }
  });

  // The people of one company calling at once share a check (lib/coalesce.ts): each round starts
  // after its callers asked, so none is let in on a subscription state older than its request.
  const checkGate = coalesce(
    ({ tenantId, feature }: { tenantId: string; feature?: Feature }) =>
      withTenant(db, tenantId, (tx) => assertAccess(tx, tenantId, now(), feature)),
    ({ tenantId, feature }) => `${tenantId} ${feature ?? ''}`,
  );

  const keyRequests = apiKeyLimit?.limits.limit({ name: 'api-key-requests', points: apiKeyLimit.perMinute, durationSeconds: 60 });

  /**
   * The identity of a request made with `key` (null: a Bearer token that cannot be a key) for a
   * route of `access`, counted against the key's requests of the minute.
   * @throws AppError UNAUTHENTICATED, RATE_LIMITED, FORBIDDEN.
   */
  const keyHolder = async (request: FastifyRequest, reply: FastifyReply, key: string | null, access: 'session' | TenantAccess): Promise<TenantIdentity> => {
    if (key === null) throw new AppError('UNAUTHENTICATED', KEY_REFUSED_MESSAGE);
    const who = await keyIdentity(db, key, now());
    const use = await keyRequests?.take(who.apiKey.id);
    if (use && !use.allowed) {
      const seconds = Math.max(1, Math.ceil(use.msBeforeReset / 1000));
      reply.header('retry-after', String(seconds));
      throw new AppError(
        'RATE_LIMITED',
        `Too many requests with this API key: it may make ${apiKeyLimit!.perMinute} a minute. Please wait ${seconds} seconds and try again.`,
      );
    }
    refuseKey(access, request.method, who.apiKey);
    return who;
  };

  app.addHook('preHandler', async (request, reply) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    const key = bearerKey(request.headers.authorization);
    if (key !== undefined) {
      const who = await keyHolder(request, reply, key, access);
      if (access === 'session') return; // refused above: keys never reach a session route
      if (access.gate === 'trial') await checkGate({ tenantId: who.tenantId, feature: access.feature });
      requireRole(who, access.role);
      identified.set(request, who);
      members.set(request, who);
      return;
    }
    if (access === 'session') {
      identified.set(request, await requireIdentity(auth, db, request, identities));
      return;
    }
    const who = await requireTenant(auth, db, request, identities);
    if (access.gate === 'trial') await checkGate({ tenantId: who.tenantId, feature: access.feature });
    requireRole(who, access.role);
    identified.set(request, who);
    members.set(request, who);
  });
}
