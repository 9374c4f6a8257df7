import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness';

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
    const res = await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'Sunny Stays', tenant_id: 'ignored' });
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

  it('saves items (re-saving replaces them), the garage and the units, then completes setup', async () => {
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
    expect(units.json()).toEqual({ count: 3 });
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
