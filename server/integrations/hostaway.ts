/**
 * Hostaway API client (docs/product.md "Import from Hostaway" holds the wire facts): tokens,
 * listings and reservations. Every call is bounded: each HTTP request by `timeoutMs`; a 429
 * (Hostaway allows 15 requests per 10 s per address) is waited out — its Retry-After, else 1, 2,
 * 4, 8 s — at most `maxRetries` times; a 403 (the token is no longer valid) asks `session.renew`
 * for a new token once and tries again. Anything else unexpected (an error status, a body that is
 * not the documented JSON, no answer in time) throws HostawayError; callers turn it into their
 * own message.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

export interface HostawayOptions {
  baseUrl: string;
  /** Longest wait for one HTTP answer, in ms. */
  timeoutMs: number;
  /** Listings per page (Hostaway documents no maximum; 100 is what its clients use). */
  pageSize: number;
  /** 429 answers waited out per request before giving up. */
  maxRetries?: number;
  /** First backoff after a 429 without Retry-After, in ms; doubled each time. */
  backoffMs?: number;
}

/** Why a call failed: 'auth' the credentials or token were refused, 'rate' still limited after the retries, 'unavailable' an error status or no answer in time, 'malformed' an answer not in the documented shape. */
export class HostawayError extends Error {
  constructor(
    readonly kind: 'auth' | 'rate' | 'unavailable' | 'malformed',
    message: string,
  ) {
    super(message);
  }
}

/** A token in use and how to get a new one when Hostaway refuses it (403). */
export interface HostawaySession {
  token: string;
  renew(): Promise<string>;
}

const tokenReply = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });

const text = z.string().nullish().catch(null);
const listing = z.object({
  id: z.coerce.number().int(),
  name: text,
  internalListingName: text,
  address: text,
  street: text,
  city: text,
  state: text,
  zipcode: text,
  country: text,
  timeZoneName: text,
});
export type HostawayListing = z.infer<typeof listing>;

const reservation = z.object({
  id: z.coerce.number().int(),
  listingMapId: z.coerce.number().int(),
  arrivalDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  departureDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  nights: z.coerce.number().int().nullish().catch(null),
  numberOfGuests: z.coerce.number().int().nullish().catch(null),
  adults: z.coerce.number().int().nullish().catch(null),
  children: z.coerce.number().int().nullish().catch(null),
  guestFirstName: text,
  guestName: text,
  status: z.string(),
  channelName: text,
  isDatesUnspecified: z.coerce.number().nullish().catch(null),
  updatedOn: text,
});
export type HostawayReservation = z.infer<typeof reservation>;

const page = <T extends z.ZodType>(item: T) => z.object({ result: z.array(item) });

/** Filters of `GET /v1/reservations` (dates Y-m-d in the listing's time zone). */
export interface ReservationFilter {
  listingId?: number;
  arrivalStartDate?: string;
  arrivalEndDate?: string;
  departureStartDate?: string;
  departureEndDate?: string;
}

export interface HostawayClient {
  /**
   * `POST /v1/accessTokens` with the client credentials.
   * @throws HostawayError 'auth' when refused, 'malformed' when the answer lacks the token or its lifetime ("Invalid token response").
   */
  getToken(clientId: string, clientSecret: string): Promise<{ token: string; expiresInSeconds: number }>;
  /** Every listing of the account, page by page (`limit`/`offset`) until a short page. */
  listListings(session: HostawaySession): Promise<HostawayListing[]>;
  /** Reservations matching `filter`, page by page by `afterId` (Hostaway deprecates offset); rows not in the documented shape are left out. */
  listReservations(session: HostawaySession, filter: ReservationFilter): Promise<HostawayReservation[]>;
  /** One reservation by id, or undefined when Hostaway has none by that id. */
  getReservation(session: HostawaySession, id: number): Promise<HostawayReservation | undefined>;
}

export function createHostawayClient(opts: HostawayOptions): HostawayClient {
  const base = opts.baseUrl.replace(/\/$/, '');
  const maxRetries = opts.maxRetries ?? 4;
  const backoffMs = opts.backoffMs ?? 1000;

  /** One HTTP exchange with 429 backoff; resolves with the status and the parsed JSON body (undefined when not JSON). */
  async function exchange(path: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      let raw: string;
      try {
        res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
        raw = await res.text();
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        throw new HostawayError('unavailable', timedOut ? `Hostaway did not answer within ${opts.timeoutMs / 1000} seconds` : 'Hostaway could not be reached');
      }
      if (res.status === 429) {
        if (attempt >= maxRetries) throw new HostawayError('rate', 'Hostaway is limiting requests; try again in a minute');
        const retryAfter = Number(res.headers.get('retry-after'));
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 10) * 1000 : backoffMs * 2 ** attempt);
        continue;
      }
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, body };
    }
  }

  /** An authorised GET; a 403 renews the token once. */
  async function get(session: HostawaySession, path: string): Promise<{ status: number; body: unknown }> {
    const call = () => exchange(path, { headers: { authorization: `Bearer ${session.token}`, 'cache-control': 'no-cache' } });
    let reply = await call();
    if (reply.status === 403) {
      session.token = await session.renew();
      reply = await call();
      if (reply.status === 403) throw new HostawayError('auth', 'Hostaway refused the new token');
    }
    return reply;
  }

  function parsed<T extends z.ZodType>(reply: { status: number; body: unknown }, schema: T): z.infer<T> {
    if (reply.status !== 200) throw new HostawayError('unavailable', `Hostaway answered ${reply.status}`);
    const result = schema.safeParse(reply.body);
    if (!result.success) throw new HostawayError('malformed', 'Hostaway answered something other than the documented JSON');
    return result.data;
  }

  /** The raw entries of a page's `result` and those of them that fit `item` (others are left out). */
  function entries<T extends z.ZodType>(reply: { status: number; body: unknown }, item: T): { raw: unknown[]; kept: z.infer<T>[] } {
    const raw = parsed(reply, page(z.unknown())).result;
    return {
      raw,
      kept: raw.flatMap((r) => {
        const one = item.safeParse(r);
        return one.success ? [one.data as z.infer<T>] : [];
      }),
    };
  }

  return {
    async getToken(clientId, clientSecret) {
      const reply = await exchange('/v1/accessTokens', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: 'general' }),
      });
      if (reply.status === 401 || reply.status === 403 || reply.status === 400) throw new HostawayError('auth', 'Hostaway refused the Client ID or Client Secret');
      if (reply.status !== 200) throw new HostawayError('unavailable', `Hostaway answered ${reply.status}`);
      const token = tokenReply.safeParse(reply.body);
      if (!token.success) throw new HostawayError('malformed', 'Invalid token response');
      return { token: token.data.access_token, expiresInSeconds: token.data.expires_in };
    },

    async listListings(session) {
      // By id: a listing added while paging shifts the offsets and shows one listing on two pages.
      const byId = new Map<number, HostawayListing>();
      for (let offset = 0; ; offset += opts.pageSize) {
        const { raw, kept } = entries(await get(session, `/v1/listings?limit=${opts.pageSize}&offset=${offset}`), listing);
        for (const l of kept) byId.set(l.id, l);
        if (raw.length < opts.pageSize) return [...byId.values()];
      }
    },

    async listReservations(session, filter) {
      const all: HostawayReservation[] = [];
      let afterId = 0;
      for (;;) {
        const query = new URLSearchParams({ limit: String(opts.pageSize), afterId: String(afterId) });
        for (const [key, value] of Object.entries(filter)) if (value !== undefined) query.set(key, String(value));
        const { raw: rows, kept } = entries(await get(session, `/v1/reservations?${query}`), reservation);
        all.push(...kept);
        const ids = rows.map((r) => Number((r as { id?: unknown })?.id)).filter(Number.isFinite);
        const last = Math.max(afterId, ...ids);
        if (rows.length < opts.pageSize || last === afterId) return all;
        afterId = last;
      }
    },

    async getReservation(session, id) {
      const reply = await get(session, `/v1/reservations/${id}`);
      if (reply.status === 404) return undefined;
      return parsed(reply, z.object({ result: reservation })).result;
    },
  };
}
