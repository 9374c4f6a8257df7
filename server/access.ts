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
 * Handlers read the result as `request.identity` ('session') or `request.who` (a tenant access)
 * and never resolve an identity or choose a gate themselves. The hook runs after the request's
 * input is validated, as the handlers' own checks did before it (a malformed body answers 400
 * whoever sends it). The app refuses to start when an /api route declares no access.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Feature } from '../common/contracts/billing';
import type { Role } from '../common/contracts/session';
import type { Db } from './db/client';
import { withTenant } from './db/tenant-tx';
import { coalesce } from './lib/coalesce';
import { requireRole } from './lib/roles';
import type { Auth } from './modules/auth/auth';
import type { IdentityCache } from './modules/auth/identity-cache';
import { requireIdentity, requireTenant, type Identity, type TenantIdentity } from './modules/auth/session';
import { assertAccess } from './modules/billing/plans';

/**
 * A member of a company with at least `role`, and where the expired-trial gate is applied:
 * - 'trial': by the hook, before the handler; with `feature`, the plan must include it too;
 * - 'none': not at all (onboarding, billing, the dashboard work behind the gate).
 */
export type TenantAccess = { role: Role; gate: 'trial'; feature?: Feature } | { role: Role; gate: 'none' };

/**
 * Who may call a route: 'public' anyone (sign-in, health, the API document, the signed Stripe
 * webhook); 'session' a signed-in user, with or without a company; else a TenantAccess.
 */
export type RouteAccess = 'public' | 'session' | TenantAccess;

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
export function installAccess(app: FastifyInstance, { auth, db, now, identities }: AccessOptions): void {
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

  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
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
