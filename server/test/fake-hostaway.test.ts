/** The fake Hostaway speaks the wire format the client relies on (server/test/fake-hostaway.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeListings, makeReservations, startFakeHostaway, type FakeHostaway } from './fake-hostaway';

const token = async (fake: FakeHostaway, secret = 'secret') => {
  const res = await fetch(`${fake.url}/v1/accessTokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: '77', client_secret: secret, scope: 'general' }),
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string; expires_in?: number } };
};

describe('fake Hostaway', () => {
  let fake: FakeHostaway;
  const listings = makeListings(7);
  beforeAll(async () => {
    fake = await startFakeHostaway({ accounts: [{ clientId: '77', clientSecret: 'secret', listings, reservations: makeReservations(listings, new Date()) }], rateLimit: 15 });
  });
  afterAll(() => fake.close());

  it('issues tokens for known credentials only, pages listings, expires tokens and limits the rate', async () => {
    expect((await token(fake, 'wrong')).status).toBe(403);
    const { body } = await token(fake);
    expect(body.expires_in).toBeGreaterThan(0);
    const auth = { authorization: `Bearer ${body.access_token}` };
    const page = await (await fetch(`${fake.url}/v1/listings?limit=5&offset=5`, { headers: auth })).json();
    expect(page).toMatchObject({ status: 'success', count: 7 });
    expect(page.result.map((l: { id: number }) => l.id)).toEqual([1006, 1007]);
    const after = await (await fetch(`${fake.url}/v1/reservations?limit=3&afterId=50002&listingId=1002`, { headers: auth })).json();
    expect(after.result.every((r: { id: number; listingMapId: number }) => r.id > 50002 && r.listingMapId === 1002)).toBe(true);
    fake.expireTokens();
    expect((await fetch(`${fake.url}/v1/listings`, { headers: auth })).status).toBe(403);
    fake.resetRateLimit();
    const statuses = [];
    for (let i = 0; i < 16; i++) statuses.push((await fetch(`${fake.url}/v1/listings`)).status);
    expect(statuses.slice(0, 15).every((s) => s === 403)).toBe(true);
    expect(statuses[15]).toBe(429);
    fake.resetRateLimit();
  });
});
