/**
 * Access declared per route (server/access.ts, docs/decisions/019-access-per-route.md): every /api
 * route declares who may call it, the declarations are the reviewed ones and the API document
 * names the refusals they give, and the hook refuses in the order and with the answers the
 * handlers gave before: 401, 409, 402, then 403.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { utc } from '@date-fns/utc';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installAccess, KEY_NOT_ALLOWED_MESSAGE, keysAllowed, READ_ONLY_KEY_MESSAGE, type RouteAccess } from './access';
import { createAuth } from './modules/auth/auth';
import { setTenantPlan, setTrialEnd } from './modules/billing/operator';
import type { Database } from './db/client';
import { openLimits } from './lib/limits';
import { api, apiWithKey, APP_URL, backends, createTestApp, openTestDatabase, signUpAndSignIn, TEST_APP_SECRET, type TestApp } from './test/harness';
import { stockTenant, type StockTenant } from './test/stock-fixtures';
import type { Role } from '../common/contracts/session';
import { isAtLeast, roleOrder } from '../common/permissions';

const member = { role: 'member', gate: 'trial' } as const;
const admin = { role: 'admin', gate: 'trial' } as const;
const ungated = { role: 'member', gate: 'none' } as const;
const setup = { role: 'admin', gate: 'none' } as const;

/**
 * Who may call each route (docs/product.md "Roles", "Screens: Expired-trial gate", the matrix of
 * common/permissions.ts); the API document's own routes are all public.
 */
const reviewed: Record<string, RouteAccess> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /api/auth/*': 'public',
  'POST /api/auth/*': 'public',
  'POST /api/billing/webhook': 'public',
  'GET /api/me': 'session',
  'GET /api/onboarding/status': 'session',
  'POST /api/onboarding/company': 'session',
  'GET /api/subscription/tiers': 'session',
  'GET /api/onboarding/setup': setup,
  'POST /api/onboarding/items': setup,
  'POST /api/onboarding/garage': setup,
  'POST /api/onboarding/units': setup,
  'GET /api/subscription/status': ungated,
  'GET /api/subscription/usage': ungated,
  'POST /api/subscription/checkout': { role: 'owner', gate: 'none' },
  'POST /api/subscription/portal': { role: 'owner', gate: 'none' },
  'GET /api/dashboard': ungated,
  'GET /api/items': member,
  'POST /api/items': admin,
  'PATCH /api/items/:id': admin,
  'DELETE /api/items/:id': admin,
  'GET /api/garages': member,
  'POST /api/garages': admin,
  'PATCH /api/garages/:id': admin,
  'PUT /api/garages/:id/inventory': member,
  'POST /api/garages/:id/count': member,
  'DELETE /api/garages/:id': admin,
  'GET /api/units': member,
  'POST /api/units': admin,
  'GET /api/units/:id': member,
  'PATCH /api/units/:id': admin,
  'DELETE /api/units/:id': admin,
  'POST /api/units/:id/inventory': member,
  'POST /api/units/:id/inventory/:itemId/consume': { role: 'member', gate: 'trial' },
  'POST /api/units/:id/inventory/:itemId/transfer': member,
  'POST /api/units/:id/restock-to-minimum': member,
  'DELETE /api/units/:id/inventory/:itemId': member,
  'POST /api/units/:id/movements/reverse': member,
  'POST /api/units/:id/count': member,
  'GET /api/reports/costs': { ...member, feature: 'cost_reports' },
  'GET /api/reports/status': { ...member, feature: 'cost_reports' },
  'POST /api/reports/assistant': { ...member, feature: 'ai_reports' },
  'GET /api/scanner': member,
  'POST /api/units/:id/scans': { ...member, feature: 'ai_scanner' },
  'GET /api/scans/:id/photo': member,
  'POST /api/scans/:id/apply': { ...member, feature: 'ai_scanner' },
  'GET /api/users': member,
  'PATCH /api/users/:id': { ...admin, apiKeys: false },
  'DELETE /api/users/:id': { role: 'admin', gate: 'none', apiKeys: false },
  'POST /api/invitations': { ...admin, apiKeys: false },
  'POST /api/invitations/:id/resend': { ...admin, apiKeys: false },
  'DELETE /api/invitations/:id': { role: 'admin', gate: 'none', apiKeys: false },
  'GET /api/api-keys': { role: 'admin', gate: 'none', apiKeys: false },
  'POST /api/api-keys': { ...admin, apiKeys: false },
  'DELETE /api/api-keys/:id': { role: 'admin', gate: 'none', apiKeys: false },
  'GET /api/webhooks': { role: 'admin', gate: 'none', apiKeys: false },
  'POST /api/webhooks': { ...admin, apiKeys: false },
  'PATCH /api/webhooks/:id': { role: 'admin', gate: 'none', apiKeys: false },
  'DELETE /api/webhooks/:id': { role: 'admin', gate: 'none', apiKeys: false },
  'GET /api/webhooks/:id/deliveries': { role: 'admin', gate: 'none', apiKeys: false },
  'POST /api/webhooks/:id/deliveries/:deliveryId/resend': { role: 'admin', gate: 'none', apiKeys: false },
  'POST /api/webhooks/:id/test': { role: 'admin', gate: 'none', apiKeys: false },
  'POST /api/invitations/preview': 'public',
  'POST /api/invitations/accept': 'session',
  'POST /api/invitations/join': 'public',
  'GET /api/hostaway/connection': { ...admin, feature: 'listing_import' },
  'PUT /api/hostaway/connection': { ...admin, feature: 'listing_import' },
  'DELETE /api/hostaway/connection': { ...admin, feature: 'listing_import' },
  'GET /api/hostaway/listings': { ...admin, feature: 'listing_import' },
  'POST /api/hostaway/imports': { ...admin, feature: 'listing_import' },
  'POST /api/hostaway/webhook-credentials': { ...admin, feature: 'listing_import' },
  'POST /api/hostaway/webhook': 'public',
  'GET /api/units/:id/stays': member,
  'GET /api/me/daily-email': { ...ungated, apiKeys: false },
  'PUT /api/me/daily-email': { ...ungated, apiKeys: false },
  'PUT /api/company/time-zone': setup,
  'POST /api/daily-email/unsubscribe': 'public',
  'GET /api/forecast': member,
  'GET /api/forecast/summary': member,
  'PUT /api/forecast/service-level': admin,
  'GET /api/units/:id/forecast': member,
  'GET /api/garages/:id/pick-list': member,
  'POST /api/units/:id/pick-list/deliver': member,
  'GET /api/garages/:id/order-forecast': member,
  'GET /api/units/:id/calendar': member,
  'PUT /api/units/:id/calendar': admin,
  'POST /api/units/:id/calendar/links': admin,
  'DELETE /api/units/:id/calendar/links/:linkId': admin,
  'POST /api/units/:id/calendar/refresh': member,
};

const ROLE_REFUSED = { code: 'FORBIDDEN', message: 'Your role does not allow this action. Ask an administrator of your company.' };
const TRIAL_EXPIRED = { code: 'SUBSCRIPTION_REQUIRED', message: 'Your trial has expired. Please subscribe to continue.' };

describe('declared access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('is declared on every /api route, as reviewed', () => {
    const api = t.routes.filter((r) => r.url.startsWith('/api/'));
    const undeclared = api.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    const docs = api.filter((r) => r.url.startsWith('/api/docs'));
    expect(docs.length).toBeGreaterThan(0);
    for (const r of docs) expect(r.access, `${r.method} ${r.url}`).toBe('public');
    const declared = Object.fromEntries(api.filter((r) => !r.url.startsWith('/api/docs')).map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(declared).toEqual(reviewed);
  });

  it('is what the API document says: public operations need no cookie, the others list the refusals of their access', async () => {
    type Operation = { security?: unknown[]; responses: Record<string, { description: string }> };
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    for (const [route, access] of Object.entries(reviewed)) {
      if (route.includes('/api/auth/')) continue; // documented once as /api/auth/{path}
      const [method, url] = route.split(' ') as [string, string];
      const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(op, route).toBeDefined();
      const refusals = (status: number) => op!.responses[String(status)]?.description ?? '';
      // Routes an API key may call take either scheme (the document's default); the others the session cookie only.
      expect(op!.security, route).toEqual(access === 'public' ? [] : keysAllowed(access) ? undefined : [{ sessionCookie: [] }]);
      if (access === 'public') continue;
      expect(refusals(401), route).toContain('UNAUTHENTICATED');
      if (access === 'session') continue;
      expect(refusals(409), route).toContain('NO_TENANT');
      if (access.gate !== 'none') expect(refusals(402), route).toContain('SUBSCRIPTION_REQUIRED');
      if (access.role !== 'member' || 'feature' in access) expect(refusals(403), route).toContain('FORBIDDEN');
    }
  });
});

describe('the access hook', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeEach(async () => {
    database = await openTestDatabase('pglite');
    app = Fastify();
    const auth = createAuth({ db: database.db, secret: TEST_APP_SECRET, appUrl: APP_URL, mailer: { send: async () => {} }, limits: openLimits(database.db) });
    installAccess(app, { auth, db: database.db, now: () => new Date() });
  });
  afterEach(async () => {
    await app.close();
    await database.close();
  });

  it('stops the app from starting while an /api route declares no access', async () => {
    app.get('/api/declared', { config: { access: 'public' } }, async () => ({}));
    app.get('/api/forgotten', async () => ({}));
    await expect(app.ready()).rejects.toThrow('Routes without a declared access (docs/decisions/019-access-per-route.md): GET /api/forgotten; HEAD /api/forgotten');
  });

  it('fails a handler that reads an identity its route does not declare', async () => {
    app.get('/api/open', { config: { access: 'public' } }, async (request) => request.who);
    const res = await app.inject({ method: 'GET', url: '/api/open' });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('GET /api/open must declare a tenant access to read it');
  });
});

describe.each(backends)('refusals by declared access on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  /** A user with no company yet. */
  let newcomer: string;
  /** A member and an admin of s's company. */
  let memberCookie: string;
  let adminCookie: string;

  const joinAs = async (email: string, role: 'member' | 'admin') => {
    const cookie = await signUpAndSignIn(t, email);
    const me = (await api(t, cookie, 'GET', '/api/me')).json() as { user: { id: string } };
    await t.database.db.execute(
      sql`insert into memberships (tenant_id, id, user_id, role) values (${s.tenantId}, ${randomUUID()}, ${me.user.id}, ${role})`,
    );
    return cookie;
  };

  beforeAll(async () => {
    // Hostaway at a closed loopback port: a connection attempt the walk makes is refused at once.
    t = await createTestApp(backend, { env: { HOSTAWAY_API_BASE: 'http://127.0.0.1:1' } });
    s = await stockTenant(t, 'owner@example.com');
    newcomer = await signUpAndSignIn(t, 'newcomer@example.com');
    memberCookie = await joinAs('member@example.com', 'member');
    adminCookie = await joinAs('admin@example.com', 'admin');
  });
  afterAll(() => t.close());

  it('answers 401 without a session, on every access but public', async () => {
    for (const [method, url] of [['GET', '/api/me'], ['GET', '/api/dashboard'], ['GET', '/api/units'], ['POST', '/api/subscription/portal']] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error, url).toEqual({ code: 'UNAUTHENTICATED', message: 'No authenticated user' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('validates the request before asking who sends it', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/items', headers: { 'content-type': 'application/json', origin: APP_URL }, payload: { name: '' } });
    expect(res.statusCode).toBe(400);
  });

  it('answers 409 to a signed-in user without a company on tenant routes, and serves their session routes', async () => {
    for (const url of ['/api/dashboard', '/api/items', '/api/subscription/status']) {
      const res = await api(t, newcomer, 'GET', url);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().error, url).toEqual({ code: 'NO_TENANT', message: 'No tenant ID available' });
    }
    expect((await api(t, newcomer, 'GET', '/api/me')).json()).toMatchObject({ tenant: null, role: null });
    expect((await api(t, newcomer, 'GET', '/api/subscription/tiers')).statusCode).toBe(200);
  });

  it('answers 403 below the least role, and lets each role do what it may', async () => {
    const newItem = { name: 'Hand Soap', category: 'Bath' };
    const refused = await api(t, memberCookie, 'POST', '/api/items', newItem);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual(ROLE_REFUSED);
    expect((await api(t, memberCookie, 'DELETE', `/api/units/${s.unitId}`)).statusCode).toBe(403);
    expect((await api(t, memberCookie, 'GET', '/api/items')).statusCode).toBe(200);
    expect((await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']}/consume`)).statusCode).toBe(200);

    expect((await api(t, adminCookie, 'POST', '/api/items', newItem)).statusCode).toBe(201);
    const checkout = await api(t, adminCookie, 'POST', '/api/subscription/checkout', { tier_id: randomUUID(), interval: 'month' });
    expect(checkout.statusCode).toBe(403);
    expect(checkout.json().error).toEqual(ROLE_REFUSED);
    // The owner gets past the role: this server has no billing configured.
    expect((await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: randomUUID(), interval: 'month' })).json().error.code).toBe(
      'BILLING_NOT_CONFIGURED',
    );
  });

  /**
   * A valid request to each route that changes something, with ids of no record (an allowed call
   * answers 404, or creates a record of its own). A new mutating route without an entry here
   * fails the walk below.
   */
  const nobody = randomUUID();
  const mutating: Record<string, () => unknown> = {
    'POST /api/onboarding/items': () => ({ items: [{ name: 'Walk Item', category: 'X' }] }),
    'POST /api/onboarding/garage': () => ({ name: 'Walk Storage', address: 'X' }),
    'POST /api/onboarding/units': () => ({ units: [{ name: 'Walk Unit', address: 'X' }] }),
    'POST /api/subscription/checkout': () => ({ tier_id: nobody, interval: 'month' }),
    'POST /api/subscription/portal': () => undefined,
    'POST /api/items': () => ({ name: `Walk ${randomUUID()}`, category: 'X' }),
    'PATCH /api/items/:id': () => ({ name: 'Walk', category: 'X' }),
    'DELETE /api/items/:id': () => undefined,
    'POST /api/garages': () => ({ name: `Walk ${randomUUID()}`, address: 'X' }),
    'PATCH /api/garages/:id': () => ({ name: 'Walk', address: 'X' }),
    'PUT /api/garages/:id/inventory': () => ({ inventory: [{ item_id: nobody, quantity: 1 }] }),
    'DELETE /api/garages/:id': () => undefined,
    'POST /api/units': () => ({ name: `Walk ${randomUUID()}`, address: 'X', garage_id: s.garageId }),
    'PATCH /api/units/:id': () => ({ name: 'Walk', address: 'X', garage_id: null }),
    'DELETE /api/units/:id': () => undefined,
    'POST /api/units/:id/inventory': () => ({ item_id: nobody, quantity: 1 }),
    'POST /api/units/:id/inventory/:itemId/consume': () => undefined,
    'POST /api/units/:id/inventory/:itemId/transfer': () => ({ quantity: 1 }),
    'POST /api/units/:id/restock-to-minimum': () => ({}),
    'DELETE /api/units/:id/inventory/:itemId': () => undefined,
    'POST /api/units/:id/movements/reverse': () => ({ movement_ids: [nobody] }),
    'POST /api/units/:id/pick-list/deliver': () => ({ lines: [{ item_id: nobody, quantity: 1 }] }),
    'PUT /api/units/:id/calendar': () => ({ typical_guests: null }),
    'POST /api/units/:id/calendar/links': () => ({ url: 'https://calendar.example/walk.ics' }),
    'DELETE /api/units/:id/calendar/links/:linkId': () => undefined,
    'POST /api/units/:id/calendar/refresh': () => undefined,
    'POST /api/reports/assistant': () => ({ type: 'summary', days: 7, limit: 25 }),
    'POST /api/garages/:id/count': () => ({ lines: [{ item_id: nobody, expected: 0, counted: 1 }] }),
    'POST /api/units/:id/count': () => ({ lines: [{ item_id: nobody, expected: 0, counted: 1 }] }),
    'POST /api/units/:id/scans': () => undefined,
    'POST /api/scans/:id/apply': () => ({ mode: 'restock', items: [{ item_id: nobody, quantity: 1 }] }),
    'PUT /api/me/daily-email': () => ({ enabled: false }),
    'PUT /api/company/time-zone': () => ({ time_zone: 'UTC' }),
    'PUT /api/forecast/service-level': () => ({ service_level: 95 }),
    'PUT /api/hostaway/connection': () => ({ client_id: '1', client_secret: 'walk' }),
    'DELETE /api/hostaway/connection': () => undefined,
    'POST /api/hostaway/imports': () => ({ garage_id: nobody, listings: [{ external_id: '1', name: 'Walk', address: 'X' }] }),
    'POST /api/hostaway/webhook-credentials': () => undefined,
    'PATCH /api/users/:id': () => ({ role: 'member' }),
    'DELETE /api/users/:id': () => undefined,
    'POST /api/invitations': () => ({ email: `walk-${randomUUID()}@example.com`, role: 'member' }),
    'POST /api/invitations/:id/resend': () => undefined,
    'DELETE /api/invitations/:id': () => undefined,
    'POST /api/api-keys': () => ({ name: 'Walk', role: 'read_only' }),
    'DELETE /api/api-keys/:id': () => undefined,
    'POST /api/webhooks': () => ({ url: 'https://hooks.example/walk', events: ['stock.low'] }),
    'PATCH /api/webhooks/:id': () => ({ description: 'Walk' }),
    'DELETE /api/webhooks/:id': () => undefined,
    'POST /api/webhooks/:id/deliveries/:deliveryId/resend': () => undefined,
    'POST /api/webhooks/:id/test': () => undefined,
  };

  it('walks every /api route with every kind of API key: refused what its role, a read-only key or a route closed to keys forbids, let through the rest', async () => {
    type KeyRole = 'read_only' | 'member' | 'admin';
    const keys = {} as Record<KeyRole, string>;
    for (const role of ['read_only', 'member', 'admin'] as const) {
      const res = await api(t, s.cookie, 'POST', '/api/api-keys', { name: `Walk ${role}`, role });
      expect(res.statusCode, res.body).toBe(201);
      keys[role] = res.json().key;
    }
    const routes = t.routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.access !== undefined && r.access !== 'public');
    // Valid bodies for the session routes that take one (the request is validated before the key is refused).
    const bodies: Record<string, () => unknown> = {
      ...mutating,
      'POST /api/onboarding/company': () => ({ company_name: 'Walk Rentals' }),
      'POST /api/invitations/accept': () => ({ token: 'A'.repeat(43) }),
    };
    expect(routes.filter((r) => r.method !== 'GET' && !(`${r.method} ${r.url}` in bodies)).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const refusals = new Set([KEY_NOT_ALLOWED_MESSAGE, READ_ONLY_KEY_MESSAGE, ROLE_REFUSED.message]);
    let allowed = 0;
    for (const { method, url, access } of routes) {
      const route = `${method} ${url}`;
      for (const role of ['read_only', 'member', 'admin'] as const) {
        const expected =
          !keysAllowed(access) || typeof access !== 'object'
            ? KEY_NOT_ALLOWED_MESSAGE
            : role === 'read_only' && (method !== 'GET' || access.role !== 'member')
              ? READ_ONLY_KEY_MESSAGE
              : !isAtLeast(role === 'read_only' ? 'member' : role, access.role)
                ? ROLE_REFUSED.message
                : null;
        const path = url.replaceAll(/:\w+/g, nobody);
        const res = await apiWithKey(t.app, keys[role], method as 'POST', path, method === 'GET' ? undefined : bodies[route]!());
        const message = res.headers['content-type']?.toString().includes('json') ? (res.json() as { error?: { message?: string } }).error?.message : undefined;
        const context = `${route} with a ${role} key: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, context).not.toBe(400);
        expect(res.statusCode, context).not.toBe(401);
        if (expected === null) {
          allowed++;
          expect(refusals.has(message ?? ''), context).toBe(false);
        } else {
          expect(res.statusCode, context).toBe(403);
          expect(message, context).toBe(expected);
        }
      }
    }
    expect(allowed).toBeGreaterThan(50);
  });

  it('walks every mutating company route with every role: refused below its declared role, let through from it', async () => {
    const cookies: Record<Role, string> = { member: memberCookie, admin: adminCookie, owner: s.cookie };
    const routes = t.routes.filter((r) => r.method !== 'GET' && typeof r.access === 'object');
    expect(routes.map((r) => `${r.method} ${r.url}`).filter((r) => !(r in mutating))).toEqual([]);
    for (const { method, url, access } of routes) {
      const route = `${method} ${url}`;
      const least = (access as { role: Role }).role;
      for (const role of roleOrder) {
        const res = await api(t, cookies[role], method as 'POST', url.replaceAll(/:\w+/g, nobody), mutating[route]!());
        const refused = res.statusCode === 403 && res.json().error.message === ROLE_REFUSED.message;
        expect(refused, `${route} as ${role}: ${res.statusCode} ${res.body}`).toBe(!isAtLeast(role, least));
      }
    }
  });

  it('answers 402 on gated routes once the trial has expired, before the role and the plan feature', async () => {
    await setTrialEnd(t.database.db, s.tenantId, new Date(Date.now() - 1000));
    try {
      for (const [cookie, method, url] of [
        [s.cookie, 'GET', '/api/units'],
        [memberCookie, 'POST', '/api/items'],
        [s.cookie, 'GET', '/api/reports/status'],
        [s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${s.itemIds['Bath Towel']}/consume`],
      ] as const) {
        const res = await api(t, cookie, method, url, method === 'POST' && url === '/api/items' ? { name: 'X', category: 'Y' } : undefined);
        expect(res.statusCode, url).toBe(402);
        expect(res.json().error, url).toEqual(TRIAL_EXPIRED);
      }
      for (const url of ['/api/dashboard', '/api/subscription/status', '/api/subscription/usage']) {
        expect((await api(t, s.cookie, 'GET', url)).statusCode, url).toBe(200);
      }
      // Setup is not gated either: this one is refused by the service, setup being complete.
      const setup = await api(t, s.cookie, 'POST', '/api/onboarding/garage', { name: 'Main Storage', address: '1 Depot Road' });
      expect(setup.json().error.code).toBe('CONFLICT');
    } finally {
      await setTrialEnd(t.database.db, s.tenantId, addDays(new Date(), 14, { in: utc }));
    }
  });

  it('answers 403 when the plan lacks the route’s feature', async () => {
    await setTenantPlan(t.database.db, s.tenantId, 'Starter');
    try {
      const res = await api(t, s.cookie, 'POST', '/api/reports/assistant', { type: 'summary', days: 7, limit: 25 });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({ code: 'FORBIDDEN', message: 'Your Starter plan does not include this feature. Please upgrade to use it.' });
      expect((await api(t, s.cookie, 'GET', '/api/reports/status')).statusCode).toBe(200);
    } finally {
      await setTenantPlan(t.database.db, s.tenantId, null);
    }
  });
});
