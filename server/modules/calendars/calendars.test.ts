/**
 * Calendar links through the API (docs/product.md "Stays", "Calendar links"): adding a link reads
 * it at once, its stays are stored and shown with the unit's upcoming stays, a refresh stores what
 * the links list and keeps the rest (as history once begun, cancelled while ahead), a failed read
 * keeps them and says why, several links and Hostaway listing one booking give one stay, and only
 * admins add, remove and set guests. The calendars are served on loopback
 * (CALENDAR_ALLOW_LOOPBACK, for tests only).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/client';
import { openLimits } from '../../lib/limits';
import { startJobQueue } from '../../jobs/queue';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { CALENDAR_REFRESH_JOB, queuedCalendarJobs } from './refresh-jobs';
import { MANUAL_REFRESH_LIMIT, refreshCalendars, type CalendarDeps } from './service';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const NOW = new Date('2026-12-01T12:00:00Z');

/** A calendar with one stay that has ended and one ahead, of the property's UTC days. */
const pastAndFuture = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN',
  'BEGIN:VEVENT',
  'UID:past@airbnb.com',
  'DTSTART;VALUE=DATE:20261120',
  'DTEND;VALUE=DATE:20261124',
  'SUMMARY:Reserved',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:ahead@airbnb.com',
  'DTSTART;VALUE=DATE:20261205',
  'DTEND;VALUE=DATE:20261208',
  'SUMMARY:Reserved',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe.each(backends)('calendar links on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let server: Server;
  let base: string;
  let memberCookie: string;
  /** What /feed.ics answers: a body, or a status. */
  let feed: { body: string } | { status: number } = { body: fixture('airbnb.ics') };
  /** The wall clock when the app's clock was set to NOW. */
  let wallAtNow: number;

  /**
   * Sets the app's clock to `at` and moves the wall clock, in which the refresh limit counts
   * (lib/limits.ts), as far from NOW, until the test ends.
   */
  const moveClocks = (at: Date) => {
    if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(wallAtNow + at.getTime() - NOW.getTime());
    t.setNow(at);
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  const calendarRows = async (unitId: string) =>
    queryRows<{ id: string; arrival_date: string; departure_date: string; nights: number; guests: number | null; status: string; channel: string | null }>(
      t.database.db,
      sql`select id, arrival_date::text, departure_date::text, nights, guests, status, channel from reservations
          where source = 'calendar' and unit_id = ${unitId} order by arrival_date, id`,
    );

  const confirmedRows = async (unitId: string) => (await calendarRows(unitId)).filter((r) => r.status === 'confirmed');

  /** Adds link `url` to `unitId` as the owner; the answer. */
  const addLink = (unitId: string, url: string, cookie = s.cookie) => api(t, cookie, 'POST', `/api/units/${unitId}/calendar/links`, { url });

  /** A new property of the company; its id. */
  const newUnit = async (name: string) => ((await api(t, s.cookie, 'POST', '/api/units', { name, address: `${name} Road`, garage_id: s.garageId })).json() as { id: string }).id;

  /** The job's deps, reading at `now`. */
  const depsAt = (now: Date): CalendarDeps => ({
    db: t.database.db,
    now: () => now,
    feed: { timeoutMs: 2000, maxBytes: 1024 * 1024, allowLoopback: true },
    manualRefreshes: openLimits(t.database.db).limit(MANUAL_REFRESH_LIMIT),
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.split('?')[0] === '/feed.ics') {
        if ('body' in feed) res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(feed.body);
        else res.writeHead(feed.status).end();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp(backend, { env: { CALENDAR_ALLOW_LOOPBACK: 'true', CALENDAR_TIMEOUT_MS: '2000' } });
    t.setNow(NOW);
    wallAtNow = Date.now();
    s = await stockTenant(t, 'calendar-owner@example.com');
    memberCookie = await signUpAndSignIn(t, 'calendar-member@example.com');
    const me = (await api(t, memberCookie, 'GET', '/api/me')).json() as { user: { id: string } };
    await t.database.db.execute(sql`insert into memberships (tenant_id, id, user_id, role) values (${s.tenantId}, ${randomUUID()}, ${me.user.id}, 'member')`);
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('starts without a link', async () => {
    const res = await api(t, memberCookie, 'GET', `/api/units/${s.unitId}/calendar`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unit_id: s.unitId, typical_guests: null, links: [] });
  });

  it('refuses a member adding a link or setting guests, and invalid links and guest numbers', async () => {
    expect((await addLink(s.unitId, `${base}/feed.ics`, memberCookie)).statusCode).toBe(403);
    expect((await api(t, memberCookie, 'PUT', `/api/units/${s.unitId}/calendar`, { typical_guests: 2 })).statusCode).toBe(403);
    const invalidLinks: [unknown, string][] = [
      ['ftp://example.com/cal.ics', 'Calendar link must start with http:// or https://'],
      [`https://example.com/${'a'.repeat(2000)}`, 'Calendar link must be at most 2,000 characters'],
      ['https://example.com/a\u0000b', 'Calendar link must not contain spaces or control characters'],
      ['   ', 'Calendar link is required'],
      [null, 'Calendar link must be text'],
    ];
    for (const [url, message] of invalidLinks) {
      const res = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/calendar/links`, { url });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.issues.map((i: { message: string }) => i.message), message).toContain(message);
    }
    const invalidGuests: [unknown, string][] = [
      [0, 'Typical guests must be at least 1'],
      [101, 'Typical guests must be at most 100'],
      [2.5, 'Typical guests must be a whole number'],
      ['4', 'Typical guests must be a number'],
    ];
    for (const [typical_guests, message] of invalidGuests) {
      const res = await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { typical_guests });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.issues.map((i: { message: string }) => i.message), message).toContain(message);
    }
    expect(await calendarRows(s.unitId)).toEqual([]);
    expect((await api(t, s.cookie, 'GET', `/api/units/${s.unitId}/calendar`)).json()).toEqual({ unit_id: s.unitId, typical_guests: null, links: [] });
  });

  it('adding a link reads it at once: its stays are stored and shown with the upcoming stays', async () => {
    feed = { body: fixture('airbnb.ics') };
    expect((await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { typical_guests: 4 })).json()).toMatchObject({ typical_guests: 4 });
    const res = await addLink(s.unitId, `${base}/feed.ics`);
    expect(res.statusCode).toBe(201);
    const state = res.json() as { links: { id: string }[] };
    const linkId = state.links[0]!.id;
    expect(state).toEqual({
      unit_id: s.unitId,
      typical_guests: 4,
      links: [{ id: linkId, url: `${base}/feed.ics`, synced_at: NOW.toISOString(), error: null, upcoming_stays: 2 }],
    });
    expect(await calendarRows(s.unitId)).toEqual([
      { id: `${linkId}/1418fb94e984-0d1ce1d4a3e2a6c7d1d5c45d66e3c8e1@airbnb.com`, arrival_date: '2026-12-03', departure_date: '2026-12-07', nights: 4, guests: null, status: 'confirmed', channel: 'Airbnb' },
      { id: `${linkId}/1418fb94e984-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@airbnb.com`, arrival_date: '2026-12-07', departure_date: '2026-12-12', nights: 5, guests: null, status: 'confirmed', channel: 'Airbnb' },
    ]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${s.unitId}/stays`)).json() as { source: string; arrival_date: string }[];
    expect(stays.map((x) => [x.source, x.arrival_date])).toEqual([
      ['calendar', '2026-12-03'],
      ['calendar', '2026-12-07'],
    ]);
    // The same link again is refused and reads nothing.
    const again = await addLink(s.unitId, `${base}/feed.ics`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This unit already has this calendar link');
  });

  it('a refresh stores the stays the link lists and cancels those ahead it no longer lists; a second one within a minute is refused', async () => {
    feed = { body: fixture('booking.ics') };
    moveClocks(new Date(NOW.getTime() + 5 * 60_000));
    const res = await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(res.statusCode).toBe(200);
    expect(res.json().links).toMatchObject([{ error: null, upcoming_stays: 2, synced_at: new Date(NOW.getTime() + 5 * 60_000).toISOString() }]);
    expect((await calendarRows(s.unitId)).map((r) => [r.arrival_date, r.channel, r.status])).toEqual([
      ['2026-12-02', 'Booking.com', 'confirmed'],
      ['2026-12-03', 'Airbnb', 'cancelled'],
      ['2026-12-07', 'Airbnb', 'cancelled'],
      ['2026-12-10', 'Booking.com', 'confirmed'],
    ]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${s.unitId}/stays`)).json() as { arrival_date: string }[];
    expect(stays.map((x) => x.arrival_date)).toEqual(['2026-12-02', '2026-12-10']);
    const again = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toEqual({ code: 'RATE_LIMITED', message: 'This calendar was refreshed less than a minute ago. Please wait a minute and try again.' });
  });

  it('a failed read says why and keeps the stays', async () => {
    feed = { status: 404 };
    moveClocks(new Date(NOW.getTime() + 10 * 60_000));
    const res = await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(res.statusCode).toBe(200);
    expect(res.json().links).toMatchObject([{ error: 'Calendar link answered 404', upcoming_stays: 2, synced_at: new Date(NOW.getTime() + 5 * 60_000).toISOString() }]);
    feed = { body: fixture('not-ical.ics') };
    moveClocks(new Date(NOW.getTime() + 12 * 60_000));
    const html = await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(html.json().links).toMatchObject([{ error: 'Calendar link did not give an iCal calendar', upcoming_stays: 2 }]);
    expect(await confirmedRows(s.unitId)).toHaveLength(2);
    // The next successful read clears the error.
    feed = { body: fixture('booking.ics') };
    moveClocks(new Date(NOW.getTime() + 14 * 60_000));
    expect((await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`)).json().links).toMatchObject([{ error: null, upcoming_stays: 2 }]);
  });

  it('a link to a private address is added with the reason it cannot be read', async () => {
    const unitId = await newUnit('Metadata Barn');
    const res = await addLink(unitId, 'http://169.254.169.254/latest/meta-data/');
    expect(res.statusCode).toBe(201);
    expect(res.json().links).toMatchObject([{ url: 'http://169.254.169.254/latest/meta-data/', synced_at: null, error: 'Calendar link points to a private or local address' }]);
  });

  it('two properties exporting the same UIDs keep their own stays', async () => {
    const other = await newUnit('Harbour Flat');
    feed = { body: fixture('booking.ics') };
    const res = await addLink(other, `${base}/feed.ics`);
    const linkId = (res.json() as { links: { id: string }[] }).links[0]!.id;
    expect(res.json().links).toMatchObject([{ upcoming_stays: 2, error: null }]);
    expect(await confirmedRows(s.unitId)).toHaveLength(2);
    expect((await calendarRows(other)).map((r) => r.id)).toEqual([`${linkId}/8f3e61b0a0c5e2d9e1a2b3c4d5e6f7a8@booking.com`, `${linkId}/2a4c6e8f0b1d3f5a7c9e1b3d5f7a9c1e@booking.com`]);
  });

  it('a link that lists future bookings only keeps the stays that have begun as history, and a booking ahead that leaves it is cancelled until it comes back', async () => {
    const unitId = await newUnit('Dune Cabin');
    const calendar = (...events: [string, string, string][]) =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN',
        ...events.flatMap(([uid, start, end]) => ['BEGIN:VEVENT', `UID:${uid}@airbnb.com`, `DTSTART;VALUE=DATE:${start}`, `DTEND;VALUE=DATE:${end}`, 'SUMMARY:Reserved', 'END:VEVENT']),
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    // The hourly job's read, on the days after NOW (a person's session would have expired).
    const read = async (daysAfterNow: number, body: string) => {
      feed = { body };
      await refreshCalendars(depsAt(new Date(NOW.getTime() + daysAfterNow * 86_400_000)), s.tenantId, unitId);
      return (await calendarRows(unitId)).map((r) => [r.arrival_date, r.status]);
    };
    feed = { body: calendar(['a', '20261203', '20261207'], ['b', '20261207', '20261212']) };
    await addLink(unitId, `${base}/feed.ics?future-only`);
    // Eight days on, the export lists what is ahead only: the stay that ended and the one under way stay.
    expect(await read(8, calendar(['c', '20261220', '20261223'], ['d', '20261227', '20261230']))).toEqual([
      ['2026-12-03', 'confirmed'], ['2026-12-07', 'confirmed'], ['2026-12-20', 'confirmed'], ['2026-12-27', 'confirmed'],
    ]);
    expect(await read(9, calendar(['c', '20261220', '20261223']))).toEqual([
      ['2026-12-03', 'confirmed'], ['2026-12-07', 'confirmed'], ['2026-12-20', 'confirmed'], ['2026-12-27', 'cancelled'],
    ]);
    expect(await read(10, calendar(['c', '20261220', '20261223'], ['d', '20261227', '20261231']))).toEqual([
      ['2026-12-03', 'confirmed'], ['2026-12-07', 'confirmed'], ['2026-12-20', 'confirmed'], ['2026-12-27', 'confirmed'],
    ]);
    expect((await calendarRows(unitId)).at(-1)).toMatchObject({ departure_date: '2026-12-31', nights: 4 });
  });

  it("upcoming stays count the property's days: in Los Angeles at 6 pm a guest leaving tomorrow is still listed", async () => {
    const unitId = await newUnit('Venice Loft');
    await t.database.db.execute(sql`update units set time_zone = 'America/Los_Angeles' where id = ${unitId}`);
    feed = {
      body: ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN', 'BEGIN:VEVENT', 'UID:leaving@airbnb.com', 'DTSTART;VALUE=DATE:20261129', 'DTEND;VALUE=DATE:20261202', 'SUMMARY:Reserved', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'),
    };
    // 2026-12-02 02:00 UTC is 2026-12-01 18:00 in Los Angeles: the guest leaves tomorrow there.
    moveClocks(new Date('2026-12-02T02:00:00Z'));
    const added = await addLink(unitId, `${base}/feed.ics?la`);
    expect(added.json().links).toMatchObject([{ upcoming_stays: 1, error: null }]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { arrival_date: string; departure_date: string }[];
    expect(stays.map((x) => [x.arrival_date, x.departure_date])).toEqual([['2026-11-29', '2026-12-02']]);
  });

  it('a booking both imported from Hostaway and listed by the link counts once, in the list and the forecast', async () => {
    const unitId = await newUnit('Twin Source Villa');
    moveClocks(NOW);
    feed = { body: fixture('airbnb.ics') };
    await addLink(unitId, `${base}/feed.ics?twin`);
    // Hostaway imported the first of the link's two bookings, with its guests, and a booking of its own.
    await t.database.db.execute(sql`
      insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, guests, status, channel)
      values (${s.tenantId}, 'hostaway', '90001', ${unitId}, '2026-12-03', '2026-12-07', 4, 5, 'new', 'airbnbOfficial'),
             (${s.tenantId}, 'hostaway', '90002', ${unitId}, '2026-12-13', '2026-12-14', 1, 2, 'new', 'direct')`);
    // The link's next read matches them (a Hostaway sync does too, listings-import tests).
    await refreshCalendars(depsAt(NOW), s.tenantId, unitId);
    expect((await calendarRows(unitId)).map((r) => [r.arrival_date, r.status])).toEqual([
      ['2026-12-03', 'duplicate'],
      ['2026-12-07', 'confirmed'],
    ]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { source: string; arrival_date: string; guests: number | null; also_listed_by: unknown[] }[];
    expect(stays.map((x) => [x.source, x.arrival_date, x.guests, x.also_listed_by])).toEqual([
      ['hostaway', '2026-12-03', 5, [{ channel: 'Airbnb' }]],
      ['calendar', '2026-12-07', null, []],
      ['hostaway', '2026-12-13', 2, []],
    ]);
    const forecast = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/forecast`)).json() as { stays: { arrival_date: string; guests: number }[] };
    // The forecast's horizon is its 7 days: the stays arriving by 2026-12-08.
    expect(forecast.stays.map((x) => [x.arrival_date, x.guests])).toEqual([
      ['2026-12-03', 5],
      ['2026-12-07', 2],
    ]);
    // The link still lists both: its own count says so.
    expect((await api(t, s.cookie, 'GET', `/api/units/${unitId}/calendar`)).json().links).toMatchObject([{ upcoming_stays: 2 }]);
    // Cancelled on Hostaway, the booking the link still lists counts from the link again.
    await t.database.db.execute(sql`update reservations set status = 'cancelled' where source = 'hostaway' and id = '90001'`);
    await refreshCalendars(depsAt(NOW), s.tenantId, unitId);
    const after = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { source: string; arrival_date: string }[];
    expect(after.map((x) => [x.source, x.arrival_date])).toEqual([
      ['calendar', '2026-12-03'],
      ['calendar', '2026-12-07'],
      ['hostaway', '2026-12-13'],
    ]);
  });

  it('two links on one property: each booking once, matched by dates or by the guest’s name while one link lags behind a change', async () => {
    const unitId = await newUnit('Two Channel House');
    moveClocks(NOW);
    const event = (uid: string, start: string, end: string, summary: string, description?: string) => [
      'BEGIN:VEVENT', `UID:${uid}`, `DTSTART;VALUE=DATE:${start}`, `DTEND;VALUE=DATE:${end}`, `SUMMARY:${summary}`, ...(description ? [`DESCRIPTION:${description}`] : []), 'END:VEVENT',
    ];
    const ics = (prodid: string, ...events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${prodid}`, ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');
    // Vrbo lists its own booking and the PMS's feed lists every booking of the house, with guests.
    feed = {
      body: ics(
        '-//HomeAway.com, Inc.//EN',
        event('v1@vrbo', '20261203', '20261206', 'Reserved - José'),
        // The same dates and another name are still one booking: a property holds one at a time.
        event('v3@vrbo', '20261207', '20261208', 'Reserved - K. Lee'),
        event('v2@vrbo', '20261215', '20261218', 'Reserved - Ann'),
      ),
    };
    await addLink(unitId, `${base}/feed.ics?vrbo`);
    // The fake clock advances in steps of 20 ms: the second link must be younger than the first,
    // or the two tie and 'the oldest link' is decided by their random ids.
    vi.setSystemTime(Date.now() + 1000);
    feed = {
      body: ics(
        '-//Smoobu//EN',
        event('p1', '20261203', '20261206', 'Jose Alvarez', 'Guests: 3'),
        // Ann's booking changed to one more night: the PMS has it, Vrbo's export does not yet.
        event('p2', '20261215', '20261219', 'Ann Smith (Vrbo)'),
        event('p3', '20261207', '20261208', 'Kim Lee'),
      ),
    };
    const res = await addLink(unitId, `${base}/feed.ics?pms`);
    expect(res.statusCode).toBe(201);
    expect((res.json() as { links: { upcoming_stays: number }[] }).links.map((l) => l.upcoming_stays)).toEqual([3, 3]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { arrival_date: string; departure_date: string; guests: number | null; also_listed_by: unknown[] }[];
    expect(stays.map((x) => [x.arrival_date, x.departure_date, x.guests, x.also_listed_by.length])).toEqual([
      // The PMS's row counts where it gives the guests, else the oldest link's (Vrbo's).
      ['2026-12-03', '2026-12-06', 3, 1],
      ['2026-12-07', '2026-12-08', null, 1],
      ['2026-12-15', '2026-12-18', null, 1],
    ]);
    const forecast = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/forecast`)).json() as { stays: { arrival_date: string; guests: number }[] };
    expect(forecast.stays.map((x) => [x.arrival_date, x.guests])).toEqual([
      ['2026-12-03', 3],
      ['2026-12-07', 2],
    ]);
    // Removing the PMS's link: Vrbo's bookings count from Vrbo again.
    const pms = (res.json() as { links: { id: string }[] }).links[1]!.id;
    const removed = await api(t, s.cookie, 'DELETE', `/api/units/${unitId}/calendar/links/${pms}`);
    expect(removed.statusCode).toBe(204);
    const left = (await api(t, s.cookie, 'GET', `/api/units/${unitId}/calendar`)).json() as { links: { url: string }[] };
    expect(left.links.map((l) => l.url)).toEqual([`${base}/feed.ics?vrbo`]);
    const after = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { arrival_date: string; departure_date: string }[];
    expect(after.map((x) => [x.arrival_date, x.departure_date])).toEqual([
      ['2026-12-03', '2026-12-06'],
      ['2026-12-07', '2026-12-08'],
      ['2026-12-15', '2026-12-18'],
    ]);
    expect((await api(t, s.cookie, 'DELETE', `/api/units/${unitId}/calendar/links/${pms}`)).statusCode).toBe(404);
  });

  it('a property takes at most 5 links', async () => {
    const unitId = await newUnit('Many Links Cottage');
    for (let i = 0; i < 5; i++) expect((await addLink(unitId, `http://10.0.0.${i}/cal.ics`)).statusCode).toBe(201);
    const sixth = await addLink(unitId, 'http://10.0.0.9/cal.ics');
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().error.message).toBe('A unit can have at most 5 calendar links');
    expect((await api(t, s.cookie, 'GET', `/api/units/${unitId}/calendar`)).json().links).toHaveLength(5);
  });

  it('removing a link removes its stays that have not ended and keeps those that have', async () => {
    const unitId = await newUnit('Past Stay Lodge');
    feed = { body: pastAndFuture };
    const linkId = ((await addLink(unitId, `${base}/feed.ics?past`)).json() as { links: { id: string }[] }).links[0]!.id;
    expect((await calendarRows(unitId)).map((r) => r.arrival_date)).toEqual(['2026-11-20', '2026-12-05']);
    expect((await api(t, memberCookie, 'DELETE', `/api/units/${unitId}/calendar/links/${linkId}`)).statusCode).toBe(403);
    const res = await api(t, s.cookie, 'DELETE', `/api/units/${unitId}/calendar/links/${linkId}`);
    expect(res.statusCode).toBe(204);
    expect((await api(t, s.cookie, 'GET', `/api/units/${unitId}/calendar`)).json()).toEqual({ unit_id: unitId, typical_guests: null, links: [] });
    expect((await calendarRows(unitId)).map((r) => r.arrival_date)).toEqual(['2026-11-20']);
    const refresh = await api(t, memberCookie, 'POST', `/api/units/${unitId}/calendar/refresh`);
    expect(refresh.statusCode).toBe(409);
    expect(refresh.json().error.message).toBe('This unit has no calendar link');
  });

  it('another company’s property or link answers 404 and changes nothing', async () => {
    const other = await stockTenant(t, 'calendar-other@example.com');
    const [link] = await queryRows<{ id: string }>(t.database.db, sql`select id from calendar_links where unit_id = ${s.unitId}`);
    const ownUnit = await api(t, other.cookie, 'GET', `/api/units/${other.unitId}/calendar`);
    expect(ownUnit.statusCode).toBe(200);
    for (const [method, url, body] of [
      ['GET', `/api/units/${s.unitId}/calendar`, undefined],
      ['PUT', `/api/units/${s.unitId}/calendar`, { typical_guests: 9 }],
      ['POST', `/api/units/${s.unitId}/calendar/links`, { url: `${base}/feed.ics?intruder` }],
      ['DELETE', `/api/units/${s.unitId}/calendar/links/${link!.id}`, undefined],
      ['POST', `/api/units/${s.unitId}/calendar/refresh`, undefined],
    ] as const) {
      const res = await api(t, other.cookie, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.message).toBe('Unit not found');
    }
    // Its own property with the other company's link id: no such link.
    const crossLink = await api(t, other.cookie, 'DELETE', `/api/units/${other.unitId}/calendar/links/${link!.id}`);
    expect(crossLink.statusCode).toBe(404);
    expect(crossLink.json().error.message).toBe('Calendar link not found');
    expect((await api(t, s.cookie, 'GET', `/api/units/${s.unitId}/calendar`)).json()).toMatchObject({ typical_guests: 4, links: [{ id: link!.id }] });
  });

  it('the refresh job reads each linked property and queues its next run; removing the last link ends the chain', async () => {
    feed = { body: fixture('airbnb.ics') };
    const unitId = await newUnit('Job Cottage');
    await t.database.db.execute(sql`insert into calendar_links (tenant_id, unit_id, url) values (${s.tenantId}, ${unitId}, ${`${base}/feed.ics`})`);
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    const jobsOf = () =>
      queryRows<{ state: string; later: boolean }>(
        t.database.db,
        sql`select state::text, start_after > now() + interval '50 minutes' as later from pgboss.job where name = ${CALENDAR_REFRESH_JOB} and data->>'unitId' = ${unitId} order by created_on`,
      );
    try {
      await queuedCalendarJobs(queue, depsAt(NOW), 60);
      await queue.boss.send(CALENDAR_REFRESH_JOB, { tenantId: s.tenantId, unitId });
      for (let i = 0; i < 60 && (await calendarRows(unitId)).length === 0; i++) await sleep(250);
      expect(await calendarRows(unitId)).toHaveLength(2);
      for (let i = 0; i < 20 && !(await jobsOf()).some((j) => j.later); i++) await sleep(250);
      expect((await jobsOf()).filter((j) => j.later && j.state === 'created')).toHaveLength(1);

      // Without a link the run queues nothing more.
      await t.database.db.execute(sql`delete from calendar_links where unit_id = ${unitId}`);
      await t.database.db.execute(sql`delete from pgboss.job where name = ${CALENDAR_REFRESH_JOB} and data->>'unitId' = ${unitId}`);
      await queue.boss.send(CALENDAR_REFRESH_JOB, { tenantId: s.tenantId, unitId });
      for (let i = 0; i < 60 && !(await jobsOf()).every((j) => j.state === 'completed'); i++) await sleep(250);
      expect(await jobsOf()).toEqual([{ state: 'completed', later: false }]);
    } finally {
      await queue.stop();
    }
  }, 40_000);
});
