import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, onboard, signUpAndSignIn, type TestApp } from '../../test/harness';
import { ledgerMismatches } from '../../test/stock-fixtures';

describe.each(backends)('onboarding on %s', (backend) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(backend, { trialDays: 14 });
    cookie = await signUpAndSignIn(t, 'host@example.com');
  });
  afterAll(() => t.close());

  it('starts at the company step for a user without a tenant', async () => {
    const res = await api(t, cookie, 'GET', '/api/onboarding/status');
    expect(res.json()).toEqual({ needs_onboarding: true, current_step: 'company' });
    expect((await api(t, cookie, 'POST', '/api/onboarding/items', { items: [] })).json().error.code).toBe('NO_TENANT');
  });

  it('validates the company name with the spec message', async () => {
    const res = await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION', message: 'Please enter a company name' });
  });

  it('creates the tenant with a trial and makes the user its owner; a second company is refused', async () => {
    t.setNow(new Date('2026-03-01T12:00:00Z'));
    // A tenant id from the client is refused, never used: the company is made by the server.
    const withTenant = await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'Sunny Stays', tenant_id: 'c0ffee00-0000-4000-8000-000000000000' });
    expect(withTenant.statusCode).toBe(400);
    expect(withTenant.json().error.message).toBe('Unknown field: tenant_id');
    expect((await api(t, cookie, 'GET', '/api/me')).json().tenant).toBeNull();
    const res = await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'Sunny Stays' });
    expect(res.statusCode).toBe(201);
    const me = (await api(t, cookie, 'GET', '/api/me')).json();
    expect(me).toMatchObject({ tenant: { name: 'Sunny Stays', id: res.json().tenant_id }, role: 'owner' });
    const status = (await api(t, cookie, 'GET', '/api/subscription/status')).json();
    expect(status).toEqual({ subscription_status: 'inactive', trial_status: 'active', tier_name: null, days_remaining: 14 });
    t.setNow(new Date('2026-03-15T12:00:01Z'));
    expect((await api(t, cookie, 'GET', '/api/subscription/status')).json()).toMatchObject({ trial_status: 'expired', days_remaining: 0 });
    t.setNow(new Date());
    const again = await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect((await api(t, cookie, 'GET', '/api/onboarding/status')).json()).toEqual({ needs_onboarding: true, current_step: 'items' });
  });

  it('refuses a later step before the earlier ones', async () => {
    const res = await api(t, cookie, 'POST', '/api/onboarding/garage', { name: 'G', address: 'A' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Please complete the previous steps first');
  });

  it('validates items and stores nothing from a refused request', async () => {
    const res = await api(t, cookie, 'POST', '/api/onboarding/items', {
      items: [
        { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 1.5 },
        { name: '', category: 'Linen', minimum_threshold: -1, count_cost: 'abc' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Please fill in all required fields');
    expect(res.json().error.issues.map((i: { path: unknown[] }) => i.path.join('.'))).toEqual(
      expect.arrayContaining(['items.1.name', 'items.1.minimum_threshold', 'items.1.count_cost']),
    );
    const twice = await api(t, cookie, 'POST', '/api/onboarding/items', {
      items: [
        { name: 'Bath Towel', category: 'Linen' },
        { name: 'bath towel', category: 'Linen' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toBe('An item named bath towel already exists');
    expect((await api(t, cookie, 'GET', '/api/dashboard')).json().stats.total_items).toBe(0);
  });

  it('answers 413 for a body over the limit', async () => {
    const big = { items: [{ name: 'x'.repeat(150), category: 'y'.repeat(1024 * 1024), minimum_threshold: 0, count_cost: 0 }] };
    expect((await api(t, cookie, 'POST', '/api/onboarding/items', big)).statusCode).toBe(413);
  });

  it('saves items (re-saving edits them: left out ones go), the garage and the units, then completes setup', async () => {
    await api(t, cookie, 'POST', '/api/onboarding/items', { items: [{ name: 'Old', category: 'X' }] });
    const items = await api(t, cookie, 'POST', '/api/onboarding/items', {
      items: [
        { name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 },
        { name: 'Coffee Pods', category: 'Kitchen', count_cost: 0.45 },
      ],
    });
    expect(items.json()).toEqual({ count: 2 });
    expect((await api(t, cookie, 'POST', '/api/onboarding/garage', { name: 'Depot', address: '1 Road' })).statusCode).toBe(200);
    expect((await api(t, cookie, 'POST', '/api/onboarding/garage', { name: 'Main Storage', address: '1 Road' })).statusCode).toBe(200);
    expect((await api(t, cookie, 'GET', '/api/onboarding/status')).json().current_step).toBe('units');

    const empty = await api(t, cookie, 'POST', '/api/onboarding/units', { units: [] });
    expect(empty.statusCode).toBe(400);
    const units = await api(t, cookie, 'POST', '/api/onboarding/units', {
      units: [
        { name: 'Beach House', address: '2 Shore Lane' },
        { name: 'Loft 3B', address: '9 Main St' },
        { name: 'Cabin', address: '4 Pine Way' },
      ],
    });
    expect(units.json()).toEqual({ count: 3, moved: [], short: [] });
    expect((await api(t, cookie, 'GET', '/api/onboarding/status')).json()).toEqual({ needs_onboarding: false, current_step: 'units' });

    const dashboard = (await api(t, cookie, 'GET', '/api/dashboard')).json();
    expect(dashboard.stats).toEqual({ total_units: 3, total_items: 2, low_stock_items: 0, critical_items: 6 });
    expect(dashboard.unit_alerts).toHaveLength(6);
    expect(dashboard.unit_alerts[0]).toMatchObject({ alert_type: 'critical', location_type: 'unit' });
    expect(dashboard.garage_alerts).toEqual([]);
    expect(dashboard.recent_activity).toEqual([]);

    const ledger = await queryRows<{ type: string; n: number; change: number; garages: number }>(
      t.database.db,
      sql`select type, count(*)::int as n, sum(quantity_change)::int as change, count(distinct garage_id)::int as garages from inventory_logs group by type`,
    );
    expect(ledger).toEqual([{ type: 'initial', n: 6, change: 0, garages: 0 }]);
    const linked = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from units u join garages g on g.tenant_id = u.tenant_id and g.id = u.garage_id where g.name = 'Main Storage'`,
    );
    expect(linked[0]!.n).toBe(3);
  });

  it('refuses onboarding steps once setup is complete', async () => {
    const res = await api(t, cookie, 'POST', '/api/onboarding/units', { units: [{ name: 'X', address: 'Y' }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Setup is already complete');
  });
});

describe.each(backends)('a first day with stock on %s', (backend) => {
  let t: TestApp;
  let cookie: string;
  let tenantId: string;
  const items = [
    { name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 },
    { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 },
  ];
  type Saved = { items: { id: string; name: string; minimum_threshold: number }[]; garage: { name: string; stock: { item_id: string; quantity: number }[] } | null };
  const setup = async (c = cookie) => (await api(t, c, 'GET', '/api/onboarding/setup')).json() as Saved;
  const idOf = (saved: Saved, name: string) => saved.items.find((i) => i.name === name)!.id;
  const logs = () =>
    queryRows<{ type: string; source_type: string; change: number; note: string | null }>(
      t.database.db,
      sql`select type, source_type, quantity_change as change, note from inventory_logs where tenant_id = ${tenantId} and quantity_change <> 0 order by created_at, type, quantity_change`,
    );

  beforeAll(async () => {
    t = await createTestApp(backend);
    cookie = await signUpAndSignIn(t, 'first-day@example.com');
    tenantId = (await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'First Day Stays' })).json().tenant_id;
  });
  afterAll(() => t.close());

  it('shows the saved items when the items step is reopened, and edits them without duplicating', async () => {
    expect((await api(t, cookie, 'POST', '/api/onboarding/items', { items })).statusCode).toBe(200);
    const first = await setup();
    expect(first.items.map((i) => i.name)).toEqual(['Bath Towel', 'Coffee Pods']);
    expect(first.garage).toBeNull();
    // Reopened: the towel edited by id, the pods matched by name (another case), soap added.
    const again = await api(t, cookie, 'POST', '/api/onboarding/items', {
      items: [
        { ...items[0], id: idOf(first, 'Bath Towel'), name: 'Bath Towels' },
        { ...items[1], name: 'Coffee pods' },
        { name: 'Soap', category: 'Bath', minimum_threshold: 2 },
      ],
    });
    expect(again.statusCode).toBe(200);
    const second = await setup();
    expect(second.items.map((i) => [i.name, i.minimum_threshold])).toEqual([['Bath Towels', 4], ['Coffee pods', 10], ['Soap', 2]]);
    expect(idOf(second, 'Bath Towels')).toBe(idOf(first, 'Bath Towel'));
    expect(idOf(second, 'Coffee pods')).toBe(idOf(first, 'Coffee Pods'));
    // The same body twice changes nothing.
    const body = { items: second.items.map(({ id, name, minimum_threshold }) => ({ id, name, category: 'X', minimum_threshold })) };
    await api(t, cookie, 'POST', '/api/onboarding/items', body);
    await api(t, cookie, 'POST', '/api/onboarding/items', body);
    expect((await setup()).items.map((i) => i.id).sort()).toEqual(second.items.map((i) => i.id).sort());
  });

  it('records the storage step’s starting quantities in the ledger as initial, and edits them when reopened', async () => {
    const saved = await setup();
    const res = await api(t, cookie, 'POST', '/api/onboarding/garage', {
      name: 'Main Storage',
      address: '1 Depot Road',
      stock: [
        { item_id: idOf(saved, 'Bath Towels'), quantity: 10 },
        { item_id: idOf(saved, 'Coffee pods'), quantity: 25 },
        { item_id: idOf(saved, 'Soap'), quantity: 0 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(await logs()).toEqual([
      { type: 'initial', source_type: 'garage', change: 10, note: 'Starting quantity, entered during setup' },
      { type: 'initial', source_type: 'garage', change: 25, note: 'Starting quantity, entered during setup' },
    ]);
    // Reopened: the saved quantities show; 9 towels instead of 10 is a count of -1, soap 6 a new row.
    const reopened = await setup();
    expect(reopened.garage).toMatchObject({ name: 'Main Storage', stock: expect.arrayContaining([{ item_id: idOf(saved, 'Bath Towels'), quantity: 10 }]) });
    const edit = await api(t, cookie, 'POST', '/api/onboarding/garage', {
      name: 'Main Storage',
      address: '1 Depot Road',
      stock: [
        { item_id: idOf(saved, 'Bath Towels'), quantity: 9 },
        { item_id: idOf(saved, 'Soap'), quantity: 6 },
      ],
    });
    expect(edit.json()).toEqual({ id: res.json().id });
    const stock = Object.fromEntries((await setup()).garage!.stock.map((s) => [s.item_id, s.quantity]));
    expect(stock).toEqual({ [idOf(saved, 'Bath Towels')]: 9, [idOf(saved, 'Coffee pods')]: 25, [idOf(saved, 'Soap')]: 6 });
    expect((await logs()).filter((l) => l.type === 'count')).toEqual([
      { type: 'count', source_type: 'garage', change: -1, note: 'Starting quantity, entered during setup' },
    ]);
    expect(await queryRows(t.database.db, sql`select count(*)::int as n from garages where tenant_id = ${tenantId}`)).toEqual([{ n: 1 }]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses starting quantities that are not whole numbers >= 0, or of unknown items, and changes nothing', async () => {
    const saved = await setup();
    const bad = await api(t, cookie, 'POST', '/api/onboarding/garage', {
      name: 'Main Storage',
      address: '1 Depot Road',
      stock: [{ item_id: idOf(saved, 'Soap'), quantity: 1.5 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Starting quantity must be a whole number');
    const negative = await api(t, cookie, 'POST', '/api/onboarding/garage', {
      name: 'Renamed',
      address: '1 Depot Road',
      stock: [{ item_id: idOf(saved, 'Soap'), quantity: -1 }],
    });
    expect(negative.json().error.message).toBe('Starting quantity must be 0 or more');
    const unknown = await api(t, cookie, 'POST', '/api/onboarding/garage', {
      name: 'Renamed',
      address: '1 Depot Road',
      stock: [{ item_id: '00000000-0000-4000-8000-000000000000', quantity: 3 }],
    });
    expect(unknown.statusCode).toBe(404);
    expect((await setup()).garage!.name).toBe('Main Storage');
  });

  it('refuses to remove an item that holds starting stock, and removes one that does not', async () => {
    const saved = await setup();
    const keep = saved.items.filter((i) => i.name !== 'Soap').map(({ id, name, minimum_threshold }) => ({ id, name, category: 'X', minimum_threshold }));
    const refused = await api(t, cookie, 'POST', '/api/onboarding/items', { items: keep });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Soap still has 6 in storage. Set its starting quantity to 0 in the storage step before removing it.');
    expect((await setup()).items).toHaveLength(3);
    const extra = await api(t, cookie, 'POST', '/api/onboarding/items', {
      items: [...saved.items.map(({ id, name, minimum_threshold }) => ({ id, name, category: 'X', minimum_threshold })), { name: 'Spare', category: 'X' }],
    });
    expect(extra.statusCode).toBe(200);
    expect((await setup()).items).toHaveLength(4);
    await api(t, cookie, 'POST', '/api/onboarding/items', { items: saved.items.map(({ id, name, minimum_threshold }) => ({ id, name, category: 'X', minimum_threshold })) });
    expect((await setup()).items.map((i) => i.name)).toEqual(['Bath Towels', 'Coffee pods', 'Soap']);
    // Saving the items again does not undo the storage step.
    expect((await api(t, cookie, 'GET', '/api/onboarding/status')).json().current_step).toBe('units');
  });

  it('another company sees none of it and cannot edit it by id', async () => {
    const other = await signUpAndSignIn(t, 'other-first-day@example.com');
    await onboard(t, other, { company: 'Other Stays' });
    const saved = await setup();
    const theirs = await setup(other);
    expect(theirs.items.map((i) => i.name)).toEqual(['Bath Towel']);
    expect(theirs.items.some((i) => saved.items.some((m) => m.id === i.id))).toBe(false);
    // Their setup is complete: refused whatever the ids.
    expect((await api(t, other, 'POST', '/api/onboarding/items', { items: [{ id: idOf(saved, 'Soap'), name: 'Stolen', category: 'X' }] })).statusCode).toBe(409);
    const stranger = await signUpAndSignIn(t, 'stranger-first-day@example.com');
    await api(t, stranger, 'POST', '/api/onboarding/company', { company_name: 'Stranger Stays' });
    const probe = await api(t, stranger, 'POST', '/api/onboarding/items', { items: [{ id: idOf(saved, 'Soap'), name: 'Stolen', category: 'X' }] });
    expect(probe.statusCode).toBe(404);
    await api(t, stranger, 'POST', '/api/onboarding/items', { items: [{ name: 'Mine', category: 'X' }] });
    const stock = await api(t, stranger, 'POST', '/api/onboarding/garage', {
      name: 'G',
      address: 'A',
      stock: [{ item_id: idOf(saved, 'Soap'), quantity: 5 }],
    });
    expect(stock.statusCode).toBe(404);
    expect((await setup(stranger)).items.map((i) => i.name)).toEqual(['Mine']);
    expect((await setup()).items.map((i) => i.name)).toEqual(['Bath Towels', 'Coffee pods', 'Soap']);
  });

  it('fills every new property to its minimum from storage, as far as storage holds, and says what it could not cover', async () => {
    const res = await api(t, cookie, 'POST', '/api/onboarding/units', {
      units: [
        { name: 'Beach House', address: '2 Shore Lane' },
        { name: 'Loft 3B', address: '9 Main St' },
        { name: 'Cabin', address: '4 Pine Way' },
      ],
      fill_to_minimum: true,
    });
    expect(res.statusCode).toBe(200);
    const saved = await setup();
    // 3 properties: towels 3 x 4 = 12 wanted, 9 held; pods 3 x 10 = 30, 25 held; soap 3 x 2 = 6, 6 held.
    expect(res.json()).toEqual({
      count: 3,
      moved: [
        { item_id: idOf(saved, 'Bath Towels'), item_name: 'Bath Towels', quantity: 9 },
        { item_id: idOf(saved, 'Coffee pods'), item_name: 'Coffee pods', quantity: 25 },
        { item_id: idOf(saved, 'Soap'), item_name: 'Soap', quantity: 6 },
      ],
      short: [
        { item_id: idOf(saved, 'Bath Towels'), item_name: 'Bath Towels', missing: 3 },
        { item_id: idOf(saved, 'Coffee pods'), item_name: 'Coffee pods', missing: 5 },
      ],
    });
    expect(saved.garage!.stock.every((s) => s.quantity === 0)).toBe(true);
    const unitTotals = await queryRows<{ name: string; quantity: number }>(
      t.database.db,
      sql`select i.name, sum(s.quantity)::int as quantity from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
          where s.tenant_id = ${tenantId} group by i.name order by i.name`,
    );
    expect(unitTotals).toEqual([
      { name: 'Bath Towels', quantity: 9 },
      { name: 'Soap', quantity: 6 },
      { name: 'Coffee pods', quantity: 25 },
    ].sort((a, b) => (a.name < b.name ? -1 : 1)));
    const restocks = (await logs()).filter((l) => l.type === 'restock');
    expect(restocks.reduce((sum, l) => sum + l.change, 0)).toBe(0);
    expect(restocks.filter((l) => l.source_type === 'unit').reduce((sum, l) => sum + l.change, 0)).toBe(40);
    expect(await ledgerMismatches(t)).toEqual([]);
    // Not all red: two properties at their minimum, the third partly filled; none empty.
    const dashboard = (await api(t, cookie, 'GET', '/api/dashboard')).json();
    expect(dashboard.stats).toMatchObject({ total_units: 3, total_items: 3, critical_items: 0 });
    expect((await api(t, cookie, 'GET', '/api/onboarding/status')).json()).toEqual({ needs_onboarding: false, current_step: 'units' });
  });
});
