import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiWithKey, backends, createTestApp, onboard, signUpAndSignIn, type TestApp } from '../test/harness';
import { DataDirLockedError, openPglite, queryRows } from './client';
import { withTenant } from './tenant-tx';
import { recordWebhookEvent } from '../modules/webhooks/record-event';

const tenantTables = ['garages', 'units', 'items', 'garage_inventory', 'unit_inventory', 'inventory_logs', 'unit_usage_daily', 'garage_usage_daily', 'garage_usage_weekly', 'subscriptions', 'memberships', 'invitations', 'tenants', 'scans', 'calendar_links', 'idempotency_keys', 'api_keys', 'webhook_endpoints', 'webhook_events', 'webhook_deliveries'];

describe.each(backends)('tenant isolation on %s', (backend) => {
  let t: TestApp;
  let cookieA: string;
  let cookieB: string;
  let tenantA: string;
  let tenantB: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    cookieA = await signUpAndSignIn(t, 'a@example.com');
    cookieB = await signUpAndSignIn(t, 'b@example.com');
    tenantA = await onboard(t, cookieA, { company: 'A Rentals', units: [{ name: 'A1', address: 'a' }, { name: 'A2', address: 'a' }] });
    tenantB = await onboard(t, cookieB, {
      company: 'B Rentals',
      items: [
        { name: 'Sheet Set', category: 'Linen' },
        { name: 'Soap', category: 'Bath' },
        { name: 'Pods', category: 'Kitchen' },
      ],
      units: [{ name: 'B1', address: 'b' }],
    });
  });
  afterAll(() => t.close());
  beforeAll(async () => {
    // Stock in each tenant's garage, so every tenant table has rows of both tenants.
    for (const tenant of [tenantA, tenantB]) {
      await withTenant(t.database.db, tenant, (tx) =>
        tx.execute(sql`insert into garage_inventory (tenant_id, garage_id, item_id, quantity)
          select i.tenant_id, g.id, i.id, 5 from garages g cross join items i where g.tenant_id = ${tenant} and i.tenant_id = ${tenant}`),
      );
      // And usage at a unit of the garage, so the daily usage totals hold rows of both tenants.
      await withTenant(t.database.db, tenant, async (tx) => {
        await tx.execute(sql`update units set garage_id = (select id from garages where tenant_id = ${tenant} limit 1) where tenant_id = ${tenant}`);
        await tx.execute(sql`insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, type, unit_cost)
          select i.tenant_id, i.id, -1, 'unit', u.id, 'consumption', 1 from units u cross join items i where u.tenant_id = ${tenant} and i.tenant_id = ${tenant}`);
        // And a photo scan of each unit, with its photo and what was found in it.
        // Its id made from the unit's: a statement with a volatile function is not one Citus can send to the company's shard.
        await tx.execute(sql`insert into scans (tenant_id, id, unit_id, photo, detections, model)
          select u.tenant_id, md5('scan' || u.id::text)::uuid, u.id, decode('ffd8ffd9', 'hex'), jsonb_build_array(jsonb_build_object('item_id', i.id, 'quantity', 1, 'confidence', 1)), 'test'
          from units u cross join lateral (select id from items where tenant_id = ${tenant} order by id limit 1) i where u.tenant_id = ${tenant}`);
        // And a calendar link of each unit (never read here).
        await tx.execute(sql`insert into calendar_links (tenant_id, id, unit_id, url)
          select u.tenant_id, md5('link' || u.id::text)::uuid, u.id, 'https://calendar.example/' || u.id::text || '.ics' from units u where u.tenant_id = ${tenant}`);
        // And a request answered under an Idempotency-Key.
        await tx.execute(sql`insert into idempotency_keys (tenant_id, key, fingerprint, status, body) values (${tenant}, 'same-key', 'f', 200, '{}')`);
      });
    }
  });

  /** An admin API key of each company (the whole key). */
  let keyA: string;
  beforeAll(async () => {
    // An open invitation in A, so the invitations table too has rows of both tenants.
    const res = await api(t, cookieA, 'POST', '/api/invitations', { email: 'invited-to-a@example.com', role: 'member' });
    if (res.statusCode !== 201) throw new Error(`invitation failed: ${res.body}`);
    // And an API key of each company.
    for (const cookie of [cookieA, cookieB]) {
      const key = await api(t, cookie, 'POST', '/api/api-keys', { name: 'Sync', role: 'admin' });
      if (key.statusCode !== 201) throw new Error(`API key failed: ${key.body}`);
      if (cookie === cookieA) keyA = key.json().key;
    }
    // And a webhook endpoint of each company, with an event delivered to it (never sent here).
    for (const [cookie, tenant] of [[cookieA, tenantA], [cookieB, tenantB]] as const) {
      const endpoint = await api(t, cookie, 'POST', '/api/webhooks', { url: 'https://hooks.example/stock', events: ['stock.low'] });
      if (endpoint.statusCode !== 201) throw new Error(`webhook endpoint failed: ${endpoint.body}`);
      await withTenant(t.database.db, tenant, (tx) => recordWebhookEvent(tx, tenant, 'stock.low', { tenant }));
    }
  });

  it('lists only the caller tenant rows', async () => {
    const a = (await api(t, cookieA, 'GET', '/api/dashboard')).json();
    const b = (await api(t, cookieB, 'GET', '/api/dashboard')).json();
    expect(a.stats).toMatchObject({ total_units: 2, total_items: 1 });
    expect(b.stats).toMatchObject({ total_units: 1, total_items: 3 });
    expect(a.unit_alerts.map((x: { location_name: string }) => x.location_name).sort()).toEqual(['A1', 'A2']);
    expect((await api(t, cookieB, 'GET', '/api/me')).json().tenant).toEqual({ id: tenantB, name: 'B Rentals' });
  });

  it('takes the tenant from the session only: a tenant id in the query string is refused, not followed', async () => {
    const res = await api(t, cookieA, 'GET', `/api/dashboard?tenant_id=${tenantB}&_tenant_id=${tenantB}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Unknown query parameters: tenant_id, _tenant_id');
    expect(res.body).not.toContain('B Rentals');
    expect((await api(t, cookieA, 'GET', '/api/dashboard')).json().stats.total_items).toBe(1);
  });

  // Every route that takes an id in its path, called by tenant A with ids of tenant B's rows.
  // A new id route without an entry here fails the test.
  type Ids = { unit: string; garage: string; item: string; movement: string; scan: string; user: string; invitation: string; calendarLink: string; apiKey: string; webhook: string; delivery: string };
  const probes: Record<string, (b: Ids) => unknown> = {
    'PATCH /api/items/:id': () => ({ name: 'Stolen', category: 'X' }),
    'DELETE /api/items/:id': () => undefined,
    'PATCH /api/garages/:id': () => ({ name: 'Stolen', address: 'X' }),
    'PUT /api/garages/:id/inventory': (b) => ({ inventory: [{ item_id: b.item, quantity: 1 }] }),
    'POST /api/garages/:id/count': (b) => ({ lines: [{ item_id: b.item, expected: 5, counted: 9 }] }),
    'DELETE /api/garages/:id': () => undefined,
    'GET /api/units/:id': () => undefined,
    'PATCH /api/units/:id': (b) => ({ name: 'Stolen', address: 'X', garage_id: b.garage }),
    'DELETE /api/units/:id': () => undefined,
    'POST /api/units/:id/inventory': (b) => ({ item_id: b.item, quantity: 1 }),
    'POST /api/units/:id/inventory/:itemId/consume': () => undefined,
    'POST /api/units/:id/inventory/:itemId/transfer': () => ({ quantity: 1 }),
    'POST /api/units/:id/restock-to-minimum': (b) => ({ item_id: b.item }),
    'DELETE /api/units/:id/inventory/:itemId': () => undefined,
    'POST /api/units/:id/movements/reverse': (b) => ({ movement_ids: [b.movement] }),
    'POST /api/units/:id/count': (b) => ({ lines: [{ item_id: b.item, expected: 0, counted: 9 }] }),
    'POST /api/units/:id/scans': () => undefined,
    'GET /api/scans/:id/photo': () => undefined,
    'POST /api/scans/:id/apply': (b) => ({ mode: 'restock', items: [{ item_id: b.item, quantity: 1 }] }),
    'PATCH /api/users/:id': () => ({ role: 'member' }),
    'DELETE /api/users/:id': () => undefined,
    'POST /api/invitations/:id/resend': () => undefined,
    'DELETE /api/invitations/:id': () => undefined,
    'GET /api/units/:id/stays': () => undefined,
    'GET /api/units/:id/calendar': () => undefined,
    'PUT /api/units/:id/calendar': () => ({ typical_guests: 9 }),
    'POST /api/units/:id/calendar/links': () => ({ url: 'https://calendar.example/stolen.ics' }),
    'DELETE /api/units/:id/calendar/links/:linkId': () => undefined,
    'POST /api/units/:id/calendar/refresh': () => undefined,
    'GET /api/units/:id/forecast': () => undefined,
    'GET /api/garages/:id/pick-list': () => undefined,
    'POST /api/units/:id/pick-list/deliver': (b) => ({ lines: [{ item_id: b.item, quantity: 1 }] }),
    'GET /api/garages/:id/order-forecast': () => undefined,
    'DELETE /api/api-keys/:id': () => undefined,
    'PATCH /api/webhooks/:id': () => ({ url: 'https://hooks.example/stolen', enabled: false }),
    'DELETE /api/webhooks/:id': () => undefined,
    'GET /api/webhooks/:id/deliveries': () => undefined,
    'POST /api/webhooks/:id/deliveries/:deliveryId/resend': () => undefined,
    'POST /api/webhooks/:id/test': () => undefined,
  };

  /** B's ids of every kind, read once. */
  let idsOfB: Ids | undefined;
  const idsOf = async (): Promise<Ids> => {
    if (idsOfB) return idsOfB;
    const one = async (table: string) =>
      (await queryRows<{ id: string }>(t.database.db, sql`select id from ${sql.raw(table)} where tenant_id = ${tenantB} limit 1`))[0]!.id;
    // A use at B's unit, which B itself could undo.
    const [use] = await queryRows<{ id: string }>(t.database.db, sql`select id from inventory_logs where tenant_id = ${tenantB} and type = 'consumption' limit 1`);
    // B's owner, and an open invitation of B.
    const [owner] = await queryRows<{ user_id: string }>(t.database.db, sql`select user_id from memberships where tenant_id = ${tenantB} limit 1`);
    const invitation = (await api(t, cookieB, 'POST', '/api/invitations', { email: 'invited-to-b@example.com', role: 'member' })).json() as { id: string };
    idsOfB = { unit: await one('units'), garage: await one('garages'), item: await one('items'), movement: use!.id, scan: await one('scans'), user: owner!.user_id, invitation: invitation.id, calendarLink: await one('calendar_links'), apiKey: await one('api_keys'), webhook: await one('webhook_endpoints'), delivery: await one('webhook_deliveries') };
    return idsOfB;
  };
  const urlFor = (pattern: string, b: Ids) => {
    const idFor = ({ items: b.item, garages: b.garage, users: b.user, invitations: b.invitation, scans: b.scan, 'api-keys': b.apiKey, webhooks: b.webhook } as Record<string, string>)[pattern.split('/')[2]!] ?? b.unit;
    return pattern.replace(':id', idFor).replace(':itemId', b.item).replace(':linkId', b.calendarLink).replace(':deliveryId', b.delivery);
  };
  const teamOfB = () =>
    queryRows(t.database.db, sql`select user_id, role, null as status, null as expires_at from memberships where tenant_id = ${tenantB} union all select null, role, status, expires_at::text from invitations where tenant_id = ${tenantB} union all select created_by, role, 'key', revoked_at::text from api_keys where tenant_id = ${tenantB} order by 1, 2, 3, 4`);

  it("refuses A's API key everything of B: 404 or 403 on every route with an id in its path, no B rows in any list, nothing changed", async () => {
    const b = await idsOf();
    const beforeTeam = await teamOfB();
    const before = await queryRows(t.database.db, sql`select count(*)::int as logs, sum(quantity_change)::int as total from inventory_logs`);
    const idRoutes = t.routes.filter((r) => r.url.includes('/:')).map((r) => `${r.method} ${r.url}`);
    for (const route of idRoutes) {
      const [method, pattern] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      const res = await apiWithKey(t.app, keyA, method, urlFor(pattern, b), probes[route]!(b));
      expect([403, 404], `${route}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      expect(res.body, route).not.toContain(b.unit);
    }
    expect(await queryRows(t.database.db, sql`select count(*)::int as logs, sum(quantity_change)::int as total from inventory_logs`)).toEqual(before);
    expect(await teamOfB()).toEqual(beforeTeam);
    const everyIdOfB = Object.values(b);
    for (const path of ['/api/items', '/api/garages', '/api/units', '/api/dashboard', '/api/users', '/api/forecast', '/api/reports/status']) {
      const res = await apiWithKey(t.app, keyA, 'GET', path);
      expect(res.statusCode, path).toBe(200);
      for (const id of everyIdOfB) expect(res.body, path).not.toContain(id);
      expect(res.body, path).not.toContain('B Rentals');
    }
  });

  it('answers 404 on every route with an id in its path for another tenant ids, and changes nothing', async () => {
    const idRoutes = t.routes.filter((r) => r.url.includes('/:')).map((r) => `${r.method} ${r.url}`);
    expect(idRoutes.filter((r) => !(r in probes))).toEqual([]);
    const b = await idsOf();
    const beforeTeam = await teamOfB();
    const before = await queryRows(t.database.db, sql`select count(*)::int as logs, sum(quantity_change)::int as total from inventory_logs`);
    for (const route of idRoutes) {
      const [method, pattern] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      const res = await api(t, cookieA, method, urlFor(pattern, b), probes[route]!(b));
      expect(res.statusCode, route).toBe(404);
    }
    expect(await queryRows(t.database.db, sql`select count(*)::int as logs, sum(quantity_change)::int as total from inventory_logs`)).toEqual(before);
    expect((await api(t, cookieB, 'GET', `/api/units/${b.unit}`)).json().name).toBe('B1');
    expect(await teamOfB()).toEqual(beforeTeam);
  });

  it('the Users screen lists only the caller company members and invitations', async () => {
    const team = (await api(t, cookieA, 'GET', '/api/users')).json() as { members: { email: string }[]; invitations: { email: string }[] };
    expect(team.members.map((m) => m.email)).toEqual(['a@example.com']);
    expect(team.invitations.map((i) => i.email)).toEqual(['invited-to-a@example.com']);
  });

  it('lists never show another tenant rows', async () => {
    for (const path of ['/api/items', '/api/garages', '/api/units']) {
      const a = (await api(t, cookieA, 'GET', path)).json() as { id: string }[];
      const foreign = await queryRows<{ id: string }>(
        t.database.db,
        sql`select id from ${sql.raw(path.split('/')[2]!)} where tenant_id = ${tenantB}`,
      );
      expect(a.length, path).toBeGreaterThan(0);
      expect(a.filter((r) => foreign.some((f) => f.id === r.id)), path).toEqual([]);
    }
  });

  it('row-level security alone hides other tenants rows when the tenant filter is left out', async () => {
    const counts = await withTenant(t.database.db, tenantA, async (tx) => {
      const out: Record<string, number> = {};
      for (const table of tenantTables) {
        const key = table === 'tenants' ? sql.raw('id') : sql.raw('tenant_id');
        const [row] = await queryRows<{ foreign: number; own: number }>(
          tx,
          sql`select count(*) filter (where ${key} <> ${tenantA})::int as foreign, count(*) filter (where ${key} = ${tenantA})::int as own from ${sql.raw(table)}`,
        );
        out[table] = row!.foreign;
        expect(row!.own, table).toBeGreaterThan(0);
      }
      return out;
    });
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  it('row-level security refuses writes into another tenant', async () => {
    await expect(
      withTenant(t.database.db, tenantA, (tx) =>
        tx.execute(sql`insert into items (tenant_id, name, category) values (${tenantB}, 'Injected', 'X')`),
      ),
    ).rejects.toThrow();
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from items where name = 'Injected'`);
    expect(row!.n).toBe(0);
  });

  it('the application role sees nothing without a tenant set', async () => {
    const rows = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local role inventory_app`);
      return queryRows<{ n: number }>(tx, sql`select count(*)::int as n from items`);
    });
    expect(rows[0]!.n).toBe(0);
  });
});

describe('embedded data directory', () => {
  it('is locked against a second process and released on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inv-lock-'));
    try {
      const first = await openPglite(dir);
      await expect(openPglite(dir)).rejects.toBeInstanceOf(DataDirLockedError);
      await first.close();
      const second = await openPglite(dir);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
