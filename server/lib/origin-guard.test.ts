import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, APP_URL, backends, createTestApp, type TestApp } from '../test/harness';
import { stockTenant, type StockTenant } from '../test/stock-fixtures';

describe.each(backends)('foreign origins on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let towel: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'origin@example.com');
    towel = s.itemIds['Bath Towel']!;
    const stocked = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 10 }] });
    expect(stocked.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  /**
   * The plus or minus press of the fixture's towel, as a browser would send it, with `headers`:
   * plus as the transfer of one tap (a JSON body), minus without a body, as a form could send it.
   */
  const press = (action: 'transfer' | 'consume', headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/units/${s.unitId}/inventory/${towel}/${action}`,
      headers: { cookie: s.cookie, ...headers, ...(action === 'transfer' ? { 'content-type': 'application/json' } : {}) },
      ...(action === 'transfer' ? { payload: { quantity: 1 } } : {}),
    });

  const towelAtUnit = async () => {
    const unit = (await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json() as { inventory: { item_id: string; quantity: number }[] };
    return unit.inventory.find((row) => row.item_id === towel)?.quantity ?? 0;
  };

  it('refuses plus and the bodiless minus from a foreign origin and changes nothing', async () => {
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    const before = await towelAtUnit();
    for (const action of ['transfer', 'consume'] as const) {
      for (const headers of foreign) {
        const res = await press(action, headers);
        expect(res.statusCode, `${action} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'This request came from another site and was refused' } });
      }
    }
    expect(await towelAtUnit()).toBe(before);
  });

  it('accepts the same origin (and its loopback twin), same-origin fetch metadata and requests with neither header', async () => {
    const before = await towelAtUnit();
    expect((await press('transfer', { origin: APP_URL })).statusCode).toBe(200);
    expect((await press('transfer', { origin: APP_URL.replace('localhost', '127.0.0.1') })).statusCode).toBe(200);
    expect((await press('transfer', { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await press('transfer', {})).statusCode).toBe(200);
    expect((await press('consume', { origin: APP_URL, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect(await towelAtUnit()).toBe(before + 3);
  });

  it('lets reads through from anywhere and exempts the Stripe webhook', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: s.cookie, origin: 'https://evil.example' } })).statusCode).toBe(200);
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: { origin: 'https://hooks.stripe.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(webhook.statusCode).not.toBe(403);
  });

  it('refuses a foreign sign-in with the standard body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: { email: 'origin@example.com', password: 'linen-closet-42' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(res.cookies).toEqual([]);
  });
});
