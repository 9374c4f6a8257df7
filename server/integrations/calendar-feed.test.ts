/**
 * The address guard and limits of calendar links (docs/product.md "Stays", "Calendar links"),
 * against servers on loopback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarFeedError, decodeCalendar, fetchCalendar, type CalendarFeedOptions } from './calendar-feed';
import { isAllowedAddress } from './public-address';

const PRIVATE = 'Calendar link points to a private or local address';
const NOT_HTTP = 'Calendar link must start with http:// or https://';
const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';

describe('calendar links', () => {
  let server: Server;
  let base: string;
  /** Host headers the server saw. */
  const hosts: string[] = [];
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok.ics': (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(ICS),
    '/missing.ics': (_req, res) => res.writeHead(404).end('not found'),
    '/latin.ics': (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar; charset=ISO-8859-1' }).end(Buffer.from(`${ICS}SUMMARY:R\xe9serv\xe9\r\n`, 'latin1')),
    '/to-metadata': (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/to-file': (_req, res) => res.writeHead(301, { location: 'file:///etc/passwd' }).end(),
    '/to-ftp': (_req, res) => res.writeHead(307, { location: 'ftp://example.com/cal.ics' }).end(),
    '/to-private-name': (_req, res) => res.writeHead(302, { location: 'http://localhost/cal.ics' }).end(),
    '/big-declared': (_req, res) => res.writeHead(200, { 'content-length': String(3 * 1024 * 1024) }).end(Buffer.alloc(3 * 1024 * 1024, 65)),
    '/big-streamed': (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 66);
      let sent = 0;
      const push = () => {
        let room = true;
        while (sent < 48 && room) {
          room = res.write(chunk);
          sent++;
        }
        if (sent >= 48) res.end();
        else res.once('drain', push);
      };
      push();
    },
    '/silent': () => undefined,
    '/trickle': (_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('BEGIN:VCALENDAR\r\n'), 50);
      res.on('close', () => clearInterval(timer));
    },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      const hops = url.pathname.match(/^\/hop\/(\d+)$/);
      if (hops) {
        const n = Number(hops[1]);
        res.writeHead(302, { location: n === 0 ? '/ok.ics' : `/hop/${n - 1}` }).end();
        return;
      }
      (routes[url.pathname] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const loopback: CalendarFeedOptions = { timeoutMs: 2000, maxBytes: 1024 * 1024, allowLoopback: true };
  const strict: CalendarFeedOptions = { ...loopback, allowLoopback: false };
  const refusal = (link: string, opts: CalendarFeedOptions) =>
    fetchCalendar(link, opts).then(
      () => 'read',
      (err: unknown) => (err instanceof CalendarFeedError ? err.message : `unexpected ${String(err)}`),
    );

  it('judges addresses by their range: public unicast only, loopback only when allowed', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isAllowedAddress(a, false), a).toBe(true);
    const never = [
      '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      'fc00::1', 'fd12:3456::1', 'fe80::1', '::', 'ff02::1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a00:1', 'not an address',
    ];
    for (const a of never) {
      expect(isAllowedAddress(a, false), a).toBe(false);
      expect(isAllowedAddress(a, true), a).toBe(false);
    }
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(a, false), a).toBe(false);
      expect(isAllowedAddress(a, true), a).toBe(true);
    }
  });

  it('refuses private, local and metadata addresses before connecting', async () => {
    const links = [
      `${base}/ok.ics`,
      'http://10.0.0.1/cal.ics',
      'http://172.16.0.1/cal.ics',
      'http://192.168.1.1/cal.ics',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/cal.ics',
      'http://[fc00::1]/cal.ics',
      'http://[::ffff:127.0.0.1]/cal.ics',
      'https://0x7f000001/cal.ics',
      'http://localhost/cal.ics',
    ];
    for (const link of links) expect(await refusal(link, strict), link).toBe(PRIVATE);
    // Loopback allowed (tests), every other private range still refused.
    for (const link of links.slice(1, 5).concat('http://[fc00::1]/cal.ics')) expect(await refusal(link, loopback), link).toBe(PRIVATE);
  });

  it('refuses a host any of whose addresses is private', async () => {
    const resolve = async () => ['93.184.216.34', '10.1.2.3'];
    expect(await refusal('https://calendar.example/cal.ics', { ...strict, resolve })).toBe(PRIVATE);
  });

  it('refuses links that are not http(s)', async () => {
    for (const link of ['file:///etc/passwd', 'ftp://example.com/cal.ics', 'webcal://example.com/cal.ics', 'gopher://x', 'not a link']) {
      expect(await refusal(link, loopback), link).toBe(NOT_HTTP);
    }
  });

  it('connects to the address it checked: one resolution, the Host header kept', async () => {
    let lookups = 0;
    const port = (server.address() as AddressInfo).port;
    const resolve = async () => {
      lookups++;
      return ['127.0.0.1'];
    };
    hosts.length = 0;
    expect(await fetchCalendar(`http://calendar.test:${port}/ok.ics`, { ...loopback, resolve })).toBe(ICS);
    expect(lookups).toBe(1);
    expect(hosts).toEqual([`calendar.test:${port}`]);
  });

  it('follows redirects, at most 5, and checks each target', async () => {
    expect(await fetchCalendar(`${base}/hop/4`, loopback)).toBe(ICS);
    expect(await refusal(`${base}/hop/5`, loopback)).toBe('Calendar link redirected more than 5 times');
    expect(await refusal(`${base}/to-metadata`, loopback)).toBe(PRIVATE);
    expect(await refusal(`${base}/to-file`, loopback)).toBe(NOT_HTTP);
    expect(await refusal(`${base}/to-ftp`, loopback)).toBe(NOT_HTTP);
    const resolve = async (host: string) => (host === 'localhost' ? ['10.0.0.7'] : ['127.0.0.1']);
    expect(await refusal(`${base}/to-private-name`, { ...loopback, resolve })).toBe(PRIVATE);
  });

  it('answers the status of a failed answer', async () => {
    expect(await refusal(`${base}/missing.ics`, loopback)).toBe('Calendar link answered 404');
  });

  it('refuses a calendar over the size limit, declared or streamed', async () => {
    expect(await refusal(`${base}/big-declared`, loopback)).toBe('Calendar is larger than 1 MB');
    expect(await refusal(`${base}/big-streamed`, loopback)).toBe('Calendar is larger than 1 MB');
    expect(await refusal(`${base}/big-streamed`, { ...loopback, maxBytes: 2 * 1024 * 1024 })).toBe('Calendar is larger than 2 MB');
    expect(await fetchCalendar(`${base}/big-streamed`, { ...loopback, maxBytes: 4 * 1024 * 1024 })).toHaveLength(48 * 64 * 1024);
  });

  it('reads the text in the charset the answer names, else UTF-8 (a byte-order mark dropped), else Windows-1252', async () => {
    expect(await fetchCalendar(`${base}/latin.ics`, loopback)).toBe(`${ICS}SUMMARY:Réservé\r\n`);
    const text = 'SUMMARY:Nicht verfügbar – Réservé';
    expect(decodeCalendar(Buffer.from(`\ufeff${text}`, 'utf8'), 'text/calendar')).toBe(text);
    expect(decodeCalendar(Buffer.from(text, 'utf8'), undefined)).toBe(text);
    expect(decodeCalendar(Buffer.from([...Buffer.from('\ufeff', 'utf16le'), ...Buffer.from(text, 'utf16le')]), 'text/calendar; charset="UTF-16LE"')).toBe(text);
    expect(decodeCalendar(Buffer.from('SUMMARY:R\xe9serv\xe9 \x96 Indisponible', 'latin1'), 'text/calendar')).toBe('SUMMARY:Réservé – Indisponible');
    expect(decodeCalendar(Buffer.from(text, 'utf8'), 'text/calendar; charset=no-such-charset')).toBe(text);
    expect(decodeCalendar(Buffer.from(text, 'utf8'), 'not a media type;;')).toBe(text);
  });

  it('gives up at the time limit, whether the answer never starts or never ends', async () => {
    const opts = { ...loopback, timeoutMs: 300 };
    for (const path of ['/silent', '/trickle']) {
      const started = performance.now();
      expect(await refusal(`${base}${path}`, opts), path).toBe('Calendar link did not answer within 0.3 seconds');
      expect(performance.now() - started, path).toBeLessThan(1500);
    }
  });

  it('says when the host cannot be reached', async () => {
    const resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await refusal('https://no-such-host.invalid/cal.ics', { ...strict, resolve })).toBe('Calendar link could not be reached: no-such-host.invalid was not found');
  });
});
