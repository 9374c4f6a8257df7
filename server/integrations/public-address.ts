/**
 * The guard of every request the server makes to a URL a company gives it (calendar links,
 * webhook endpoints): the server must not become a way to reach what only it can reach (its own
 * loopback services, the private network, the cloud's metadata address 169.254.169.254). Why it
 * is built this way: docs/decisions/030-calendar-links.md.
 *
 * - only http: and https: URLs;
 * - the host is resolved once (every address it has) and refused unless every address is an
 *   ordinary public unicast address (ipaddr.js `range()` is 'unicast'; IPv4-mapped IPv6 is
 *   judged as the IPv4 address it carries). Loopback is allowed only with `allowLoopback` (a
 *   configuration flag for tests), and nothing else ever is;
 * - the connection goes to the addresses that were checked ({@link pinnedLookup} hands them to
 *   the socket), so no second DNS answer can slip in between the check and the connection (TLS
 *   still verifies the certificate for the host name).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressGuardOptions {
  /** Loopback addresses are allowed (tests only); every other non-public range stays refused. */
  allowLoopback: boolean;
  /** Host name resolution (default node:dns `lookup` with every address); tests give their own. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/**
 * Why a URL was refused: 'not_http' (another scheme), 'not_found' (the host does not resolve),
 * 'private' (an address outside the public unicast ranges). Each caller words its own message.
 */
export class AddressRefused extends Error {
  constructor(
    readonly reason: 'not_http' | 'not_found' | 'private',
    readonly host: string,
  ) {
    super(`${reason}: ${host}`);
  }
}

/** Whether `address` (an IP literal) is one the server may connect to for a company. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) becomes the IPv4 address it carries.
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** `url`'s host without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Names that are loopback by definition (RFC 6761), whatever a resolver answers. */
const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/**
 * The check of a URL as it is saved, without resolving its host: refuses another scheme than
 * http(s), an IP literal outside the public ranges and the `localhost` names. Its host's
 * addresses are checked again before every request ({@link publicAddresses}), since they may change.
 * @throws AddressRefused 'not_http' or 'private'.
 */
export function checkSavedUrl(url: URL, allowLoopback: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressRefused('not_http', url.hostname);
  const host = hostOf(url);
  if (isIP(host) !== 0 ? !isAllowedAddress(host, allowLoopback) : isLocalhostName(host) && !allowLoopback) {
    throw new AddressRefused('private', host);
  }
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
 * @throws AddressRefused for a scheme other than http(s), a host that does not resolve, or any
 *   address outside the public unicast ranges.
 */
export async function publicAddresses(url: URL, opts: AddressGuardOptions): Promise<string[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressRefused('not_http', url.hostname);
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolve)(host);
    } catch {
      throw new AddressRefused('not_found', host);
    }
  }
  if (addresses.length === 0) throw new AddressRefused('not_found', host);
  // Every address must pass: a host that resolves to one public and one private address could
  // be connected to either.
  if (!addresses.every((a) => isAllowedAddress(a, opts.allowLoopback))) throw new AddressRefused('private', host);
  return addresses;
}

/** A `lookup` that answers only `addresses` (already checked), whatever it is asked. */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}
