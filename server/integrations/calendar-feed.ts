/**
 * Reads a calendar link a company gives us (docs/product.md "Stays", "Calendar links"): an iCal
 * export URL of Airbnb, Vrbo, Booking.com or any other calendar. The URL is the user's, so the
 * server must not become a way to reach what only it can reach (its own loopback services, the
 * private network, the cloud's metadata address 169.254.169.254):
 *
 * - only http: and https: URLs;
 * - the host is resolved once (every address it has) and refused unless every address is an
 *   ordinary public unicast address (ipaddr.js `range()` is 'unicast'; IPv4-mapped IPv6 is
 *   judged as the IPv4 address it carries). Loopback is allowed only with `allowLoopback`
 *   (CALENDAR_ALLOW_LOOPBACK, for tests), and nothing else ever is;
 * - the connection goes to the addresses that were checked: the request's `lookup` hands them
 *   to the socket, so no second DNS answer can slip in between the check and the connection
 *   (TLS still verifies the certificate for the host name);
 * - redirects are followed by hand, at most {@link MAX_REDIRECTS}, each target checked the same way;
 * - one time limit covers the whole read, redirects included, and the size limit is counted
 *   while the body streams (a larger Content-Length is refused before reading).
 *
 * Every failure is a {@link CalendarFeedError} whose message is shown to the person as is
 * (docs/product.md "Messages", "Stays"). Why the guard is built this way: docs/decisions/030-calendar-links.md.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import contentType from 'content-type';
import iconv from 'iconv-lite';

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

/** A calendar link could not be read; `message` is the person-facing reason. */
export class CalendarFeedError extends Error {}

export interface CalendarFeedOptions {
  /** Longest wait for the whole read, redirects included, in milliseconds. */
  timeoutMs: number;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Loopback addresses are allowed (tests only); every other non-public range stays refused. */
  allowLoopback: boolean;
  /** Host name resolution (default node:dns `lookup` with every address); tests give their own. */
  resolve?: (hostname: string) => Promise<string[]>;
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

/** Whether `address` (an IP literal) is one a calendar link may reach. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) becomes the IPv4 address it carries.
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

async function systemResolve(hostname: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/**
 * The addresses of `url`'s host, each checked; an IP literal is its own address.
 * @throws CalendarFeedError for a scheme other than http(s), a host that does not resolve, or any
 *   address outside the public unicast ranges.
 */
async function checkedAddresses(url: URL, opts: Pick<CalendarFeedOptions, 'allowLoopback' | 'resolve'>): Promise<string[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CalendarFeedError(NOT_HTTP);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolve)(host);
    } catch {
      throw new CalendarFeedError(`Calendar link could not be reached: ${host} was not found`);
    }
  }
  if (addresses.length === 0) throw new CalendarFeedError(`Calendar link could not be reached: ${host} was not found`);
  // Every address must pass: a host that resolves to one public and one private address could
  // be connected to either.
  if (!addresses.every((a) => isAllowedAddress(a, opts.allowLoopback))) throw new CalendarFeedError(PRIVATE);
  return addresses;
}

/** A `lookup` that answers only `addresses` (already checked), whatever it is asked. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
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
