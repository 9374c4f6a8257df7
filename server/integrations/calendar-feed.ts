/**
 * Reads a calendar link a company gives us (docs/product.md "Stays", "Calendar links"): an iCal
 * export URL of Airbnb, Vrbo, Booking.com or any other calendar. The URL is the user's, so every
 * request goes through the address guard (integrations/public-address.ts): http(s) only, every
 * address of the host public (loopback only with `allowLoopback`, for tests), the connection
 * pinned to the addresses checked. Besides:
 *
 * - redirects are followed by hand, at most {@link MAX_REDIRECTS}, each target checked the same way;
 * - one time limit covers the whole read, redirects included, and the size limit is counted
 *   while the body streams (a larger Content-Length is refused before reading).
 *
 * Every failure is a {@link CalendarFeedError} whose message is shown to the person as is
 * (docs/product.md "Messages", "Stays"). Why the guard is built this way: docs/decisions/030-calendar-links.md.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import contentType from 'content-type';
import iconv from 'iconv-lite';
import { AddressRefused, pinnedLookup, publicAddresses, type AddressGuardOptions } from './public-address';

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

/** A calendar link could not be read; `message` is the person-facing reason. */
export class CalendarFeedError extends Error {}

export interface CalendarFeedOptions extends AddressGuardOptions {
  /** Longest wait for the whole read, redirects included, in milliseconds. */
  timeoutMs: number;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
}

const NOT_HTTP = 'Calendar link must start with http:// or https://';
const PRIVATE = 'Calendar link points to a private or local address';

/** '10 seconds', '0.5 seconds', '1 second'. */
const seconds = (ms: number) => {
  const s = Math.round(ms / 100) / 10;
  return `${s} ${s === 1 ? 'second' : 'seconds'}`;
};
/** '2 MB', '0.5 MB' (1 MB = 1,048,576 bytes). */
const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MB`;

/**
 * The checked addresses of `url`'s host (public-address.ts `publicAddresses`).
 * @throws CalendarFeedError for a scheme other than http(s), a host that does not resolve, or any
 *   address outside the public unicast ranges.
 */
async function checkedAddresses(url: URL, opts: AddressGuardOptions): Promise<string[]> {
  try {
    return await publicAddresses(url, opts);
  } catch (err) {
    if (!(err instanceof AddressRefused)) throw err;
    if (err.reason === 'not_http') throw new CalendarFeedError(NOT_HTTP);
    if (err.reason === 'private') throw new CalendarFeedError(PRIVATE);
    throw new CalendarFeedError(`Calendar link could not be reached: ${err.host} was not found`);
  }
}

/** One GET of `url` to the checked `addresses`, settled with the answer's head (the body not yet read). */
function requestOnce(url: URL, addresses: string[], signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        lookup: pinnedLookup(addresses),
        // A fresh connection per request: a pooled socket could have been opened for another check.
        agent: false,
        signal,
        headers: { accept: 'text/calendar, text/plain;q=0.9, */*;q=0.1', 'user-agent': 'InventoryManager-Calendar/1.0' },
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The text of a calendar's bytes: in the charset its Content-Type names (any iconv-lite knows, such
 * as windows-1252, ISO-8859-1 or UTF-16LE), else UTF-8, else — bytes that are not UTF-8 —
 * Windows-1252, what exporters naming no charset on Windows write. A byte-order mark is dropped.
 * (iconv-lite rather than TextDecoder: Node 20's TextDecoder reads windows-1252 as ISO-8859-1.)
 */
export function decodeCalendar(body: Buffer, header: string | undefined): string {
  let declared: string | undefined;
  try {
    declared = header ? contentType.parse(header).parameters.charset : undefined;
  } catch {
    declared = undefined; // a malformed header names no charset
  }
  if (declared && iconv.encodingExists(declared)) return iconv.decode(body, declared);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return iconv.decode(body, 'windows-1252');
  }
}

/** Reads `res`'s body up to `maxBytes`, as text (decodeCalendar). @throws CalendarFeedError past the limit. */
async function readBody(res: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new CalendarFeedError(`Calendar is larger than ${megabytes(maxBytes)}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new CalendarFeedError(`Calendar is larger than ${megabytes(maxBytes)}`);
    }
    chunks.push(chunk);
  }
  return decodeCalendar(Buffer.concat(chunks), res.headers['content-type']);
}

/**
 * Reads the calendar at `link` (see the module's comment for the guard).
 * @returns the body as text (decodeCalendar).
 * @throws CalendarFeedError with the reason to show: not http(s), a private or local address
 *   (of the link or of a redirect), a host not found or not answering, more than MAX_REDIRECTS
 *   redirects, no answer within `timeoutMs`, a body over `maxBytes`, an answer other than 2xx.
 */
export async function fetchCalendar(link: string, opts: CalendarFeedOptions): Promise<string> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new CalendarFeedError(NOT_HTTP);
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      const addresses = await checkedAddresses(url, opts);
      if (deadline.signal.aborted) throw deadline.signal.reason;
      const res = await requestOnce(url, addresses, deadline.signal);
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        if (hop >= MAX_REDIRECTS) throw new CalendarFeedError(`Calendar link redirected more than ${MAX_REDIRECTS} times`);
        try {
          url = new URL(res.headers.location, url);
        } catch {
          throw new CalendarFeedError(NOT_HTTP);
        }
        continue;
      }
      if (status < 200 || status > 299) {
        res.resume();
        throw new CalendarFeedError(`Calendar link answered ${status}`);
      }
      return await readBody(res, opts.maxBytes);
    }
  } catch (err) {
    if (err instanceof CalendarFeedError) throw err;
    if (deadline.signal.aborted) throw new CalendarFeedError(`Calendar link did not answer within ${seconds(opts.timeoutMs)}`);
    throw new CalendarFeedError('Calendar link could not be reached');
  } finally {
    clearTimeout(timer);
  }
}
