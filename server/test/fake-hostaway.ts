/**
 * A fake Hostaway API on loopback, speaking its public wire format (docs/product.md "Import from
 * Hostaway"), for tests and for `npm run fake:hostaway`:
 *
 * - `POST /v1/accessTokens`, form `grant_type=client_credentials&client_id&client_secret&scope=general`
 *   -> `{token_type, expires_in, access_token}`; unknown credentials answer 403 `{status:"fail"}`.
 * - `GET /v1/listings?limit&offset` -> `{status, result, count, limit, offset}`.
 * - `GET /v1/reservations?limit&afterId&listingId&arrivalStartDate&arrivalEndDate&departureStartDate&departureEndDate`
 *   -> reservations by ascending id after `afterId`; `GET /v1/reservations/{id}` -> one.
 * - A token that has expired (or was revoked with `expireTokens`) answers 403.
 * - More than `rateLimit` requests in `rateWindowMs` (15 in 10 s, per client address) answer 429.
 * - `POST /v1/webhooks/unifiedWebhooks {isEnabled, url, login, password}` registers a webhook;
 *   `changeReservation` (or `POST /_fake/reservations/{id}` with a JSON patch, for manual tries)
 *   changes a reservation and posts a `reservation.updated` event to every registered webhook;
 *   `POST /_fake/webhooks {url, login, password}` registers one on the first account without a token.
 * - `sendWebhook` posts a unified-webhook event with HTTP Basic auth, as Hostaway does.
 *
 * Behaviour switches (`mode`): 'down' answers 500, 'slow' waits `delayMs` before answering,
 * 'malformed' answers a body that is not JSON.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeListing {
  id: number;
  name: string;
  address?: string | null;
  street?: string | null;
  city?: string | null;
  state?: string | null;
  zipcode?: string | null;
  country?: string | null;
  timeZoneName?: string;
}

export interface FakeReservation {
  id: number;
  listingMapId: number;
  arrivalDate: string;
  departureDate: string;
  nights: number;
  numberOfGuests: number;
  adults: number;
  children: number | null;
  status: string;
  channelName: string;
  isDatesUnspecified?: number;
  updatedOn: string;
}

export interface FakeAccount {
  clientId: string;
  clientSecret: string;
  listings: FakeListing[];
  reservations: FakeReservation[];
  /** Unified webhooks registered with `POST /v1/webhooks/unifiedWebhooks`. */
  webhooks?: { url: string; login: string; password: string }[];
}

export interface FakeHostawayOptions {
  accounts?: FakeAccount[];
  /** Requests allowed per client address in `rateWindowMs` (Hostaway: 15). */
  rateLimit?: number;
  rateWindowMs?: number;
  /** Lifetime of a new token, in seconds. */
  tokenSeconds?: number;
  port?: number;
  host?: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
}

export interface FakeHostaway {
  url: string;
  accounts: FakeAccount[];
  /** Every request with the status it was answered with, oldest first. */
  calls: RecordedCall[];
  mode: 'normal' | 'down' | 'slow' | 'malformed';
  delayMs: number;
  /** Makes every token issued so far invalid (403), as when Hostaway expires one. */
  expireTokens(): void;
  /** Forgets the requests counted for the rate limit. */
  resetRateLimit(): void;
  /** Applies `patch` to reservation `id` and posts `reservation.updated` to the account's registered webhooks. */
  changeReservation(id: number, patch: Partial<FakeReservation>): Promise<FakeReservation | undefined>;
  /** Posts `body` to `url` with Basic auth, as a Hostaway unified webhook; resolves with the answer's status. */
  sendWebhook(hook: { url: string; login: string; password: string }, body: unknown): Promise<number>;
  close(): Promise<void>;
}

/** Date `days` after `from`, as Y-m-d. */
export function dayAfter(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Reservations for `listings` around `today`: per listing a stay arriving in 2 days, a cancelled
 * one, an inquiry, a past stay and one without dates; ids from `firstId`.
 */
export function makeReservations(listings: FakeListing[], today: Date, firstId = 50_001): FakeReservation[] {
  let id = firstId;
  const updatedOn = `${dayAfter(today, -1)} 10:00:00`;
  const stay = (listingMapId: number, arrive: number, nights: number, status: string, extra: Partial<FakeReservation> = {}): FakeReservation => ({
    id: id++,
    listingMapId,
    arrivalDate: dayAfter(today, arrive),
    departureDate: dayAfter(today, arrive + nights),
    nights,
    numberOfGuests: 3,
    adults: 2,
    children: 1,
    status,
    channelName: 'airbnbOfficial',
    updatedOn,
    ...extra,
  });
  return listings.flatMap((l, i) => [
    stay(l.id, 2 + (i % 5), 3, 'new'),
    stay(l.id, 9, 2, 'cancelled'),
    stay(l.id, 12, 2, 'inquiry'),
    stay(l.id, -20, 4, 'modified'),
    stay(l.id, 5, 1, 'new', { isDatesUnspecified: 1 }),
  ]);
}

/** `n` listings numbered from `firstId`, every seventh without any address. */
export function makeListings(n: number, firstId = 1001): FakeListing[] {
  return Array.from({ length: n }, (_, i) => {
    const id = firstId + i;
    if (i % 7 === 6) return { id, name: `Listing ${id}`, address: null, timeZoneName: 'America/New_York' };
    return {
      id,
      name: `Listing ${id}`,
      address: i % 3 === 0 ? null : `${id} Ocean Drive, Miami, FL 33139, US`,
      street: `${id} Ocean Drive`,
      city: 'Miami',
      state: 'FL',
      zipcode: '33139',
      country: 'US',
      timeZoneName: 'America/New_York',
    };
  });
}

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => resolve(body));
  });

/** Starts the fake on loopback (an ephemeral port unless `port` is given). */
export async function startFakeHostaway(opts: FakeHostawayOptions = {}): Promise<FakeHostaway> {
  const accounts = opts.accounts ?? [];
  const rateLimit = opts.rateLimit ?? 15;
  const rateWindowMs = opts.rateWindowMs ?? 10_000;
  const tokenSeconds = opts.tokenSeconds ?? 15_552_000;
  const tokens = new Map<string, { account: FakeAccount; expiresAt: number }>();
  let hits = new Map<string, number[]>();
  const calls: RecordedCall[] = [];

  function answer(req: IncomingMessage, path: string, query: URLSearchParams, body: string): { status: number; body: string } {
    const client = req.socket.remoteAddress ?? '?';
    const now = Date.now();
    const recent = (hits.get(client) ?? []).filter((t) => now - t < rateWindowMs);
    recent.push(now);
    hits.set(client, recent);
    if (recent.length > rateLimit) return json(429, { status: 'fail', result: 'Too many requests' });

    if (req.method === 'POST' && path === '/v1/accessTokens') {
      const form = new URLSearchParams(body);
      const account = accounts.find((a) => a.clientId === form.get('client_id') && a.clientSecret === form.get('client_secret'));
      if (form.get('grant_type') !== 'client_credentials' || !account) return json(403, { status: 'fail', message: 'Invalid client credentials' });
      const token = randomBytes(24).toString('hex');
      tokens.set(token, { account, expiresAt: now + tokenSeconds * 1000 });
      return json(200, { token_type: 'Bearer', expires_in: tokenSeconds, access_token: token });
    }

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = bearer ? tokens.get(bearer) : undefined;
    if (!session || session.expiresAt <= now) return json(403, { status: 'fail', message: 'Unauthorized' });
    const { account } = session;
    const limit = Math.max(1, Number(query.get('limit') ?? 100) || 100);

    if (req.method === 'GET' && path === '/v1/listings') {
      const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
      const result = account.listings.slice(offset, offset + limit);
      return json(200, { status: 'success', result, count: account.listings.length, limit, offset });
    }
    if (req.method === 'GET' && path === '/v1/reservations') {
      const afterId = Number(query.get('afterId') ?? 0) || 0;
      const listingId = query.get('listingId');
      const inRange = (date: string, from: string | null, to: string | null) => (!from || date >= from) && (!to || date <= to);
      const result = account.reservations
        .filter(
          (r) =>
            r.id > afterId &&
            (!listingId || String(r.listingMapId) === listingId) &&
            inRange(r.arrivalDate, query.get('arrivalStartDate'), query.get('arrivalEndDate')) &&
            inRange(r.departureDate, query.get('departureStartDate'), query.get('departureEndDate')),
        )
        .sort((a, b) => a.id - b.id)
        .slice(0, limit);
      return json(200, { status: 'success', result, count: result.length, limit });
    }
    if (req.method === 'POST' && path === '/v1/webhooks/unifiedWebhooks') {
      const hook = JSON.parse(body || '{}') as { isEnabled?: number | boolean; url?: string; login?: string; password?: string };
      if (!hook.url) return json(400, { status: 'fail', message: 'url is required' });
      account.webhooks = [...(account.webhooks ?? []), { url: hook.url, login: hook.login ?? '', password: hook.password ?? '' }];
      return json(200, { status: 'success', result: { id: account.webhooks.length, ...hook } });
    }
    const one = /^\/v1\/reservations\/(\d+)$/.exec(path);
    if (req.method === 'GET' && one) {
      const found = account.reservations.find((r) => r.id === Number(one[1]));
      return found ? json(200, { status: 'success', result: found }) : json(404, { status: 'fail', message: 'Reservation not found' });
    }
    return json(404, { status: 'fail', message: 'Not found' });
  }

  const fake: FakeHostaway = {
    url: '',
    accounts,
    calls,
    mode: 'normal',
    delayMs: 0,
    expireTokens: () => {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    resetRateLimit: () => {
      hits = new Map();
    },
    async changeReservation(id, patch) {
      const account = accounts.find((a) => a.reservations.some((r) => r.id === id));
      const reservation = account?.reservations.find((r) => r.id === id);
      if (!account || !reservation) return undefined;
      Object.assign(reservation, patch, { id, updatedOn: new Date().toISOString().replace('T', ' ').slice(0, 19) });
      for (const hook of account.webhooks ?? []) {
        await fake.sendWebhook(hook, { object: 'reservation', event: 'reservation.updated', data: reservation }).catch(() => undefined);
      }
      return reservation;
    },
    async sendWebhook({ url, login, password }, body) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
        },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const server: Server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/_fake/webhooks' && req.method === 'POST' && accounts[0]) {
        // As if the company pasted its credentials into Hostaway (first account).
        const hook = JSON.parse(body || '{}') as { url: string; login: string; password: string };
        accounts[0].webhooks = [...(accounts[0].webhooks ?? []), hook];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'success' }));
        return;
      }
      const control = /^\/_fake\/reservations\/(\d+)$/.exec(url.pathname);
      if (control && req.method === 'POST') {
        const changed = await fake.changeReservation(Number(control[1]), JSON.parse(body || '{}') as Partial<FakeReservation>);
        res.writeHead(changed ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(changed ?? { message: 'Reservation not found' }));
        return;
      }
      const reply =
        fake.mode === 'down'
          ? json(500, { status: 'fail', message: 'Internal error' })
          : fake.mode === 'malformed'
            ? { status: 200, body: '{"status":"success","result":[' }
            : answer(req, url.pathname, url.searchParams, body);
      calls.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, status: reply.status });
      if (fake.mode === 'slow') await new Promise((r) => setTimeout(r, fake.delayMs));
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
