/**
 * Plans, the trial gate, limits and Stripe billing through the official SDK against a fake
 * Stripe API on loopback; webhooks signed with the SDK's test header.
 */
import { randomUUID } from 'node:crypto';
import { millisecondsInDay, secondsInDay } from 'date-fns/constants';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { startFakeStripe, signedEvent, type FakeStripe } from '../../test/fake-stripe';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';

const WEBHOOK_SECRET = 'whsec_test_secret';

describe.each(backends)('plans and billing on %s', (backend) => {
  let t: TestApp;
  let stripe: FakeStripe;
  let s: StockTenant;
  let tiers: { id: string; name: string; price: number; yearly_price: number; per_unit: boolean; max_garages: number }[];
  let eventSeq = 0;

  const webhook = (type: string, object: object, created = Math.floor(Date.now() / 1000), id = `evt_${++eventSeq}`, secret = WEBHOOK_SECRET) => {
    const { payload, signature } = signedEvent({ id, object: 'event', type, created, data: { object } }, secret);
    return t.app.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
  };
  const subscriptionRow = async () =>
    (await queryRows<{ status: string; tier: string | null; interval: string | null; customer: string | null; period_end: Date | null }>(
      t.database.db,
      sql`select s.status, t.name as tier, s.billing_interval as interval, s.stripe_customer_id as customer, s.current_period_end as period_end
          from subscriptions s left join subscription_tiers t on t.id = s.tier_id where s.tenant_id = ${s.tenantId}`,
    ))[0]!;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestApp(backend, {
      env: {
        STRIPE_SECRET_KEY: 'sk_test_123',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        STRIPE_PRICE_STARTER_MONTHLY: 'price_starter_month',
        STRIPE_PRICE_STARTER_YEARLY: 'price_starter_year',
        STRIPE_PRICE_ENTERPRISE_MONTHLY: 'price_ent_month',
      },
    });
    s = await stockTenant(t, 'billing@example.com');
    tiers = (await api(t, s.cookie, 'GET', '/api/subscription/tiers')).json();
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('lists the three plans, Enterprise last and per unit, yearly 10-11 % below twelve months', () => {
    expect(tiers.map((x) => x.name)).toEqual(['Starter', 'Professional', 'Enterprise']);
    expect(tiers.at(-1)!.per_unit).toBe(true);
    for (const x of tiers) {
      const saving = 1 - x.yearly_price / (12 * x.price);
      expect(saving).toBeGreaterThanOrEqual(0.1);
      expect(saving).toBeLessThanOrEqual(0.11);
    }
  });

  it('reports the trial and the allowance left under the trial plan', async () => {
    expect((await api(t, s.cookie, 'GET', '/api/subscription/status')).json()).toMatchObject({ trial_status: 'active', subscription_status: 'inactive', days_remaining: 14 });
    const usage = (await api(t, s.cookie, 'GET', '/api/subscription/usage')).json();
    expect(usage).toMatchObject({ tier_name: 'Professional', used: { units: 1, items: 2, garages: 1, users: 1 }, remaining: { units: 49, items: 248, garages: 4, users: 9 } });
  });

  it('starts Checkout through the SDK with the server-side price, quantity 1, and the tenant in metadata', async () => {
    const starter = tiers.find((x) => x.name === 'Starter')!;
    // A price from the browser is refused, never used: the price is the server's.
    const priced = await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: starter.id, interval: 'year', price_id: 'price_from_browser' });
    expect(priced.statusCode).toBe(400);
    expect(priced.json().error.message).toBe('Unknown field: price_id');
    const res = await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: starter.id, interval: 'year' });
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const call = stripe.requests.at(-1)!;
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.headers.authorization).toBe('Bearer sk_test_123');
    expect(Object.fromEntries(call.form)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_starter_year',
      'line_items[0][quantity]': '1',
      client_reference_id: s.tenantId,
      'metadata[tenant_id]': s.tenantId,
      'subscription_data[metadata][tier_id]': starter.id,
      customer_email: 'billing@example.com',
      success_url: 'http://localhost:3000/subscription?success=true',
      cancel_url: 'http://localhost:3000/subscription?canceled=true',
    });
  });

  it('bills Enterprise per unit and names a tier without a price', async () => {
    const enterprise = tiers.find((x) => x.name === 'Enterprise')!;
    await api(t, s.cookie, 'POST', '/api/units', { name: 'Loft', address: '9 Main', garage_id: s.garageId });
    await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: enterprise.id, interval: 'month' });
    expect(stripe.requests.at(-1)!.form.get('line_items[0][quantity]')).toBe('2');
    const pro = tiers.find((x) => x.name === 'Professional')!;
    const missing = await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: pro.id, interval: 'month' });
    expect(missing.statusCode).toBe(409);
    expect(missing.json().error.message).toBe('No valid price ID found for Professional');
    stripe.failing = true;
    const failed = await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: enterprise.id, interval: 'month' });
    stripe.failing = false;
    expect(failed.json().error).toMatchObject({ code: 'PROVIDER_ERROR', message: 'Failed to create checkout session' });
  });

  it('lets only the owner start checkout or open the portal', async () => {
    const cookie = await signUpAndSignIn(t, 'cleaner@example.com');
    const me = (await api(t, cookie, 'GET', '/api/me')).json();
    await t.database.db.execute(
      sql`insert into memberships (tenant_id, id, user_id, role) values (${s.tenantId}, ${randomUUID()}, ${me.user.id}, 'member')`,
    );
    const starter = tiers.find((x) => x.name === 'Starter')!;
    expect((await api(t, cookie, 'POST', '/api/subscription/checkout', { tier_id: starter.id, interval: 'month' })).statusCode).toBe(403);
    expect((await api(t, cookie, 'POST', '/api/subscription/portal')).statusCode).toBe(403);
    // Members count stock but do not manage items.
    expect((await api(t, cookie, 'POST', '/api/items', { name: 'X', category: 'Y' })).statusCode).toBe(403);
    expect((await api(t, cookie, 'GET', '/api/items')).statusCode).toBe(200);
  });

  it('refuses a webhook with a bad signature and changes nothing', async () => {
    const before = await subscriptionRow();
    const forged = await webhook('checkout.session.completed', { object: 'checkout.session', status: 'complete', metadata: { tenant_id: s.tenantId } }, undefined, 'evt_forged', 'whsec_wrong');
    expect(forged.statusCode).toBe(400);
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(unsigned.statusCode).toBe(400);
    expect(await subscriptionRow()).toEqual(before);
  });

  it('blocks the gated routes after the trial and lifts the block on a paid subscription', async () => {
    t.setNow(new Date(Date.now() + 15 * millisecondsInDay));
    const blocked = await api(t, s.cookie, 'GET', '/api/units');
    expect(blocked.statusCode).toBe(402);
    expect(blocked.json().error).toEqual({ code: 'SUBSCRIPTION_REQUIRED', message: 'Your trial has expired. Please subscribe to continue.' });
    expect((await api(t, s.cookie, 'POST', '/api/items', { name: 'X', category: 'Y' })).statusCode).toBe(402);
    // Plus (its taps as one transfer) and minus are behind the gate like every stock route, before anything else.
    for (const button of ['transfer', 'consume']) {
      expect((await api(t, s.cookie, 'POST', `/api/units/${randomUUID()}/inventory/${randomUUID()}/${button}`, { quantity: 1 })).statusCode).toBe(402);
    }
    expect((await api(t, s.cookie, 'GET', '/api/dashboard')).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'GET', '/api/subscription/status')).json()).toMatchObject({ trial_status: 'expired', days_remaining: 0 });

    const starter = tiers.find((x) => x.name === 'Starter')!;
    const created = Math.floor(Date.now() / 1000);
    const completed = await webhook(
      'checkout.session.completed',
      { object: 'checkout.session', status: 'complete', payment_status: 'paid', customer: 'cus_1', subscription: 'sub_1', client_reference_id: s.tenantId, metadata: { tenant_id: s.tenantId, tier_id: starter.id, interval: 'year' } },
      created,
      'evt_checkout',
    );
    expect(completed.json()).toEqual({ received: true, outcome: 'applied' });
    expect(await subscriptionRow()).toMatchObject({ status: 'active', tier: 'Starter', interval: 'year', customer: 'cus_1' });
    expect((await api(t, s.cookie, 'GET', '/api/units')).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'GET', '/api/subscription/status')).json()).toMatchObject({ subscription_status: 'active', tier_name: 'Starter' });

    const replay = await webhook('checkout.session.completed', { object: 'checkout.session', status: 'complete', metadata: { tenant_id: s.tenantId } }, created, 'evt_checkout');
    expect(replay.json().outcome).toBe('duplicate');
  });

  it('enforces the plan limits: Starter allows 2 garages', async () => {
    const ok = await api(t, s.cookie, 'POST', '/api/garages', { name: 'Annex', address: '5 Side St' });
    expect(ok.statusCode).toBe(201);
    const over = await api(t, s.cookie, 'POST', '/api/garages', { name: 'Third', address: '6 Side St' });
    expect(over.statusCode).toBe(402);
    expect(over.json().error).toEqual({ code: 'LIMIT_REACHED', message: 'You have reached the maximum number of garages for your plan. Please upgrade to add more.' });
    expect((await api(t, s.cookie, 'GET', '/api/subscription/usage')).json().remaining.garages).toBe(0);
  });

  it('keeps the state right when events repeat or arrive out of order', async () => {
    const base = Math.floor(Date.now() / 1000) + 10;
    const sub = (status: string, price: string) => ({
      id: 'sub_1', object: 'subscription', customer: 'cus_1', status, metadata: { tenant_id: s.tenantId },
      items: { data: [{ price: { id: price, recurring: { interval: 'month' } }, current_period_end: base + 30 * secondsInDay }] },
    });
    expect((await webhook('customer.subscription.updated', sub('past_due', 'price_starter_month'), base)).json().outcome).toBe('applied');
    expect(await subscriptionRow()).toMatchObject({ status: 'past_due', tier: 'Starter', interval: 'month' });
    expect((await webhook('customer.subscription.deleted', sub('canceled', 'price_starter_month'), base + 20)).json().outcome).toBe('applied');
    // An update created before the deletion arrives late: it must not reactivate.
    expect((await webhook('customer.subscription.updated', sub('active', 'price_starter_month'), base + 10)).json().outcome).toBe('ignored');
    expect((await webhook('invoice.paid', { object: 'invoice', customer: 'cus_1', parent: { subscription_details: { subscription: 'sub_1', metadata: { tenant_id: s.tenantId } } } }, base + 5)).json().outcome).toBe('ignored');
    const row = await subscriptionRow();
    expect(row.status).toBe('canceled');
    expect(new Date(row.period_end!).getTime()).toBe((base + 30 * secondsInDay) * 1000);
    expect((await api(t, s.cookie, 'GET', '/api/units')).statusCode).toBe(402);
    // The portal opens for the known customer.
    const portal = await api(t, s.cookie, 'POST', '/api/subscription/portal');
    expect(portal.json().url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(Object.fromEntries(stripe.requests.at(-1)!.form)).toEqual({ customer: 'cus_1', return_url: 'http://localhost:3000/subscription' });
    t.setNow(new Date());
  });
});

describe('without Stripe configured', () => {
  it('shows the plans, runs the trial and answers checkout with a clear message', async () => {
    const t = await createTestApp('pglite');
    try {
      const s = await stockTenant(t, 'selfhost@example.com');
      const tiers = (await api(t, s.cookie, 'GET', '/api/subscription/tiers')).json();
      expect(tiers).toHaveLength(3);
      const res = await api(t, s.cookie, 'POST', '/api/subscription/checkout', { tier_id: tiers[0].id, interval: 'month' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toBe('Billing is not configured on this server');
      expect((await t.app.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});

describe.runIf(backends.includes('postgres'))('limits under concurrency on postgres', () => {
  it('two concurrent creates for the last free slot: exactly one succeeds', async () => {
    const t = await createTestApp('postgres');
    try {
      const s = await stockTenant(t, 'race@example.com');
      // Trial plan (Professional) allows 5 garages; the tenant has 1: fill to 4, then race for the 5th.
      for (let i = 0; i < 3; i++) await api(t, s.cookie, 'POST', '/api/garages', { name: `G${i}`, address: 'x' });
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          [1, 2].map((n) => api(t, s.cookie, 'POST', '/api/garages', { name: `Race ${round}-${n}`, address: 'x' })),
        );
        const codes = results.map((r) => r.statusCode).sort();
        expect(codes).toEqual(round === 0 ? [201, 402] : [402, 402]);
      }
      const [count] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from garages where tenant_id = ${s.tenantId}`);
      expect(count!.n).toBe(5);
    } finally {
      await t.close();
    }
  });
});

describe('operator plan command', () => {
  it('finds a tenant by name, sets a plan by hand, removes it and ends the trial', async () => {
    const { findTenant, setTenantPlan, setTrialEnd } = await import('./operator');
    const t = await createTestApp('pglite');
    try {
      const s = await stockTenant(t, 'operator@example.com');
      const tenant = await findTenant(t.database.db, 'acme rentals');
      expect(tenant.id).toBe(s.tenantId);
      await setTenantPlan(t.database.db, tenant.id, 'enterprise');
      expect((await api(t, s.cookie, 'GET', '/api/subscription/status')).json()).toMatchObject({ subscription_status: 'active', tier_name: 'Enterprise' });
      await expect(setTenantPlan(t.database.db, tenant.id, 'Gold')).rejects.toThrow(/No plan named "Gold"/);
      await setTenantPlan(t.database.db, tenant.id, null);
      await setTrialEnd(t.database.db, tenant.id, new Date(Date.now() - 1000));
      expect((await api(t, s.cookie, 'GET', '/api/subscription/status')).json()).toMatchObject({ subscription_status: 'inactive', trial_status: 'expired' });
      expect((await api(t, s.cookie, 'GET', '/api/items')).statusCode).toBe(402);
      await expect(findTenant(t.database.db, 'nobody')).rejects.toThrow(/No tenant matches/);
    } finally {
      await t.close();
    }
  });
});
