/**
 * Calendar links through the API (docs/product.md "Stays", "Calendar links"): saving a link reads
 * it at once, its stays are stored and shown with the unit's upcoming stays, a refresh stores what
 * the link lists and keeps the rest (as history once begun, cancelled while ahead), a failed read
 * keeps them and says why, and only admins save links. The calendars are
 * served on loopback (CALENDAR_ALLOW_LOOPBACK, for tests only).
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
import { MANUAL_REFRESH_LIMIT, refreshCalendar, type CalendarDeps } from './service';

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
    expect(res.json()).toEqual({ unit_id: s.unitId, calendar_url: null, typical_guests: null, synced_at: null, error: null, upcoming_stays: 0 });
  });

  it('refuses a member saving a link, and invalid links and guest numbers', async () => {
    const member = await api(t, memberCookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: `${base}/feed.ics`, typical_guests: 2 });
    expect(member.statusCode).toBe(403);
    const invalid: [unknown, unknown, string][] = [
      ['ftp://example.com/cal.ics', null, 'Calendar link must start with http:// or https://'],
      [`https://example.com/${'a'.repeat(2000)}`, null, 'Calendar link must be at most 2,000 characters'],
      ['https://example.com/a\u0000b', null, 'Calendar link must not contain spaces or control characters'],
      [`${base}/feed.ics`, 0, 'Typical guests must be at least 1'],
      [`${base}/feed.ics`, 101, 'Typical guests must be at most 100'],
      [`${base}/feed.ics`, 2.5, 'Typical guests must be a whole number'],
    ];
    for (const [calendar_url, typical_guests, message] of invalid) {
      const res = await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url, typical_guests });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.issues.map((i: { message: string }) => i.message), message).toContain(message);
    }
    expect(await calendarRows(s.unitId)).toEqual([]);
  });

  it('saving a link reads it at once: its stays are stored and shown with the upcoming stays', async () => {
    feed = { body: fixture('airbnb.ics') };
    const res = await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: `${base}/feed.ics`, typical_guests: 4 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unit_id: s.unitId, calendar_url: `${base}/feed.ics`, typical_guests: 4, synced_at: NOW.toISOString(), error: null, upcoming_stays: 2 });
    expect(await calendarRows(s.unitId)).toEqual([
      { id: `${s.unitId}/1418fb94e984-0d1ce1d4a3e2a6c7d1d5c45d66e3c8e1@airbnb.com`, arrival_date: '2026-12-03', departure_date: '2026-12-07', nights: 4, guests: null, status: 'confirmed', channel: 'Airbnb' },
      { id: `${s.unitId}/1418fb94e984-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@airbnb.com`, arrival_date: '2026-12-07', departure_date: '2026-12-12', nights: 5, guests: null, status: 'confirmed', channel: 'Airbnb' },
    ]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${s.unitId}/stays`)).json() as { source: string; arrival_date: string }[];
    expect(stays.map((x) => [x.source, x.arrival_date])).toEqual([
      ['calendar', '2026-12-03'],
      ['calendar', '2026-12-07'],
    ]);
  });

  it('a refresh stores the stays the link lists and cancels those ahead it no longer lists; a second one within a minute is refused', async () => {
    feed = { body: fixture('booking.ics') };
    moveClocks(new Date(NOW.getTime() + 5 * 60_000));
    const res = await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ error: null, upcoming_stays: 2, synced_at: new Date(NOW.getTime() + 5 * 60_000).toISOString() });
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
    expect(res.json()).toMatchObject({ error: 'Calendar link answered 404', upcoming_stays: 2, synced_at: new Date(NOW.getTime() + 5 * 60_000).toISOString() });
    feed = { body: fixture('not-ical.ics') };
    moveClocks(new Date(NOW.getTime() + 12 * 60_000));
    const html = await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(html.json()).toMatchObject({ error: 'Calendar link did not give an iCal calendar', upcoming_stays: 2 });
    expect(await confirmedRows(s.unitId)).toHaveLength(2);
    // The next successful read clears the error.
    feed = { body: fixture('booking.ics') };
    moveClocks(new Date(NOW.getTime() + 14 * 60_000));
    expect((await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`)).json()).toMatchObject({ error: null, upcoming_stays: 2 });
  });

  it('a link to a private address is saved with the reason it cannot be read', async () => {
    const res = await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: 'http://169.254.169.254/latest/meta-data/', typical_guests: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ calendar_url: 'http://169.254.169.254/latest/meta-data/', typical_guests: null, synced_at: null, error: 'Calendar link points to a private or local address' });
  });

  it('two properties exporting the same UIDs keep their own stays', async () => {
    const created = await api(t, s.cookie, 'POST', '/api/units', { name: 'Harbour Flat', address: '9 Quay Street', garage_id: s.garageId });
    const other = (created.json() as { id: string }).id;
    feed = { body: fixture('booking.ics') };
    await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: `${base}/feed.ics`, typical_guests: null });
    const res = await api(t, s.cookie, 'PUT', `/api/units/${other}/calendar`, { calendar_url: `${base}/feed.ics`, typical_guests: 6 });
    expect(res.json()).toMatchObject({ upcoming_stays: 2, error: null });
    expect(await confirmedRows(s.unitId)).toHaveLength(2);
    expect((await calendarRows(other)).map((r) => r.id)).toEqual([
      `${other}/8f3e61b0a0c5e2d9e1a2b3c4d5e6f7a8@booking.com`,
      `${other}/2a4c6e8f0b1d3f5a7c9e1b3d5f7a9c1e@booking.com`,
    ]);
  });

  it('a link that lists future bookings only keeps the stays that have begun as history, and a booking ahead that leaves it is cancelled until it comes back', async () => {
    const created = await api(t, s.cookie, 'POST', '/api/units', { name: 'Dune Cabin', address: '3 Marram Way', garage_id: s.garageId });
    const unitId = (created.json() as { id: string }).id;
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
    const deps: CalendarDeps = { db: t.database.db, now: () => NOW, feed: { timeoutMs: 2000, maxBytes: 1024 * 1024, allowLoopback: true }, manualRefreshes: openLimits(t.database.db).limit(MANUAL_REFRESH_LIMIT) };
    const read = async (daysAfterNow: number, body: string) => {
      feed = { body };
      await refreshCalendar({ ...deps, now: () => new Date(NOW.getTime() + daysAfterNow * 86_400_000) }, s.tenantId, unitId);
      return (await calendarRows(unitId)).map((r) => [r.arrival_date, r.status]);
    };
    feed = { body: calendar(['a', '20261203', '20261207'], ['b', '20261207', '20261212']) };
    await api(t, s.cookie, 'PUT', `/api/units/${unitId}/calendar`, { calendar_url: `${base}/feed.ics?future-only`, typical_guests: null });
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
    const created = await api(t, s.cookie, 'POST', '/api/units', { name: 'Venice Loft', address: '8 Canal Street', garage_id: s.garageId });
    const unitId = (created.json() as { id: string }).id;
    await t.database.db.execute(sql`update units set time_zone = 'America/Los_Angeles' where id = ${unitId}`);
    feed = {
      body: ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN', 'BEGIN:VEVENT', 'UID:leaving@airbnb.com', 'DTSTART;VALUE=DATE:20261129', 'DTEND;VALUE=DATE:20261202', 'SUMMARY:Reserved', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'),
    };
    // 2026-12-02 02:00 UTC is 2026-12-01 18:00 in Los Angeles: the guest leaves tomorrow there.
    moveClocks(new Date('2026-12-02T02:00:00Z'));
    const saved = await api(t, s.cookie, 'PUT', `/api/units/${unitId}/calendar`, { calendar_url: `${base}/feed.ics?la`, typical_guests: null });
    expect(saved.json()).toMatchObject({ upcoming_stays: 1, error: null });
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { arrival_date: string; departure_date: string }[];
    expect(stays.map((x) => [x.arrival_date, x.departure_date])).toEqual([['2026-11-29', '2026-12-02']]);
  });

  it('saving the same link again reads it only when a refresh on request would be, and counts as one', async () => {
    const created = await api(t, s.cookie, 'POST', '/api/units', { name: 'Pier House', address: '1 Pier Road', garage_id: s.garageId });
    const unitId = (created.json() as { id: string }).id;
    const link = { calendar_url: `${base}/feed.ics?same`, typical_guests: 2 };
    const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
    moveClocks(at(20));
    feed = { body: fixture('airbnb.ics') };
    expect((await api(t, s.cookie, 'PUT', `/api/units/${unitId}/calendar`, link)).json()).toMatchObject({ synced_at: at(20).toISOString(), upcoming_stays: 2 });
    // Saved again at once, with the feed changed meanwhile: not read, the typical guests saved.
    feed = { body: fixture('booking.ics') };
    moveClocks(at(20.5));
    expect((await api(t, s.cookie, 'PUT', `/api/units/${unitId}/calendar`, { ...link, typical_guests: 5 })).json()).toMatchObject({ synced_at: at(20).toISOString(), typical_guests: 5 });
    expect((await confirmedRows(unitId)).map((r) => r.channel)).toEqual(['Airbnb', 'Airbnb']);
    // A minute on it is read, and counts as the minute's refresh on request.
    moveClocks(at(22));
    expect((await api(t, s.cookie, 'PUT', `/api/units/${unitId}/calendar`, link)).json()).toMatchObject({ synced_at: at(22).toISOString() });
    expect((await confirmedRows(unitId)).map((r) => r.channel)).toEqual(['Booking.com', 'Booking.com']);
    expect((await api(t, memberCookie, 'POST', `/api/units/${unitId}/calendar/refresh`)).statusCode).toBe(429);
  });

  it('a booking both imported from Hostaway and listed by the link counts once, in the list and the forecast', async () => {
    const created = await api(t, s.cookie, 'POST', '/api/units', { name: 'Twin Source Villa', address: '5 Mill Lane', garage_id: s.garageId });
    const unitId = (created.json() as { id: string }).id;
    moveClocks(NOW);
    feed = { body: fixture('airbnb.ics') };
    await api(t, s.cookie, 'PUT', `/api/units/${unitId}/calendar`, { calendar_url: `${base}/feed.ics?twin`, typical_guests: 2 });
    // Hostaway imported the first of the link's two bookings, with its guests, and a booking of its own.
    await t.database.db.execute(sql`
      insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, guests, status, channel)
      values (${s.tenantId}, 'hostaway', '90001', ${unitId}, '2026-12-03', '2026-12-07', 4, 5, 'new', 'airbnbOfficial'),
             (${s.tenantId}, 'hostaway', '90002', ${unitId}, '2026-12-13', '2026-12-14', 1, 2, 'new', 'direct')`);
    // The link's next read matches them (a Hostaway sync does too, listings-import tests).
    const deps: CalendarDeps = { db: t.database.db, now: () => NOW, feed: { timeoutMs: 2000, maxBytes: 1024 * 1024, allowLoopback: true }, manualRefreshes: openLimits(t.database.db).limit(MANUAL_REFRESH_LIMIT) };
    await refreshCalendar(deps, s.tenantId, unitId);
    expect((await calendarRows(unitId)).map((r) => [r.arrival_date, r.status])).toEqual([
      ['2026-12-03', 'duplicate'],
      ['2026-12-07', 'confirmed'],
    ]);
    const stays = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { source: string; arrival_date: string; guests: number | null }[];
    expect(stays.map((x) => [x.source, x.arrival_date, x.guests])).toEqual([
      ['hostaway', '2026-12-03', 5],
      ['calendar', '2026-12-07', null],
      ['hostaway', '2026-12-13', 2],
    ]);
    const forecast = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/forecast`)).json() as { stays: { arrival_date: string; guests: number }[] };
    // The forecast's horizon is its 7 days: the stays arriving by 2026-12-08.
    expect(forecast.stays.map((x) => [x.arrival_date, x.guests])).toEqual([
      ['2026-12-03', 5],
      ['2026-12-07', 2],
    ]);
    expect((await api(t, s.cookie, 'GET', `/api/units/${unitId}/calendar`)).json()).toMatchObject({ upcoming_stays: 1 });
    // Cancelled on Hostaway, the booking the link still lists counts from the link again.
    await t.database.db.execute(sql`update reservations set status = 'cancelled' where source = 'hostaway' and id = '90001'`);
    await refreshCalendar(deps, s.tenantId, unitId);
    const after = (await api(t, memberCookie, 'GET', `/api/units/${unitId}/stays`)).json() as { source: string; arrival_date: string }[];
    expect(after.map((x) => [x.source, x.arrival_date])).toEqual([
      ['calendar', '2026-12-03'],
      ['calendar', '2026-12-07'],
      ['hostaway', '2026-12-13'],
    ]);
  });

  it('removing the link removes its stays that have not ended and keeps those that have', async () => {
    feed = { body: pastAndFuture };
    await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: `${base}/feed.ics?past`, typical_guests: 3 });
    expect((await calendarRows(s.unitId)).map((r) => r.arrival_date)).toEqual(['2026-11-20', '2026-12-05']);
    const res = await api(t, s.cookie, 'PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: '  ', typical_guests: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unit_id: s.unitId, calendar_url: null, typical_guests: 3, synced_at: null, error: null, upcoming_stays: 0 });
    expect((await calendarRows(s.unitId)).map((r) => r.arrival_date)).toEqual(['2026-11-20']);
    const refresh = await api(t, memberCookie, 'POST', `/api/units/${s.unitId}/calendar/refresh`);
    expect(refresh.statusCode).toBe(409);
    expect(refresh.json().error.message).toBe('This property has no calendar link');
  });

  it('another company’s property answers 404 and changes nothing', async () => {
    const other = await stockTenant(t, 'calendar-other@example.com');
    for (const [method, url, body] of [
      ['GET', `/api/units/${s.unitId}/calendar`, undefined],
      ['PUT', `/api/units/${s.unitId}/calendar`, { calendar_url: `${base}/feed.ics`, typical_guests: 9 }],
      ['POST', `/api/units/${s.unitId}/calendar/refresh`, undefined],
    ] as const) {
      const res = await api(t, other.cookie, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.message).toBe('Unit not found');
    }
    expect((await api(t, s.cookie, 'GET', `/api/units/${s.unitId}/calendar`)).json()).toMatchObject({ calendar_url: null, typical_guests: 3 });
  });

  it('the refresh job reads each linked property and queues its next run; a removed link ends the chain', async () => {
    feed = { body: fixture('airbnb.ics') };
    const created = await api(t, s.cookie, 'POST', '/api/units', { name: 'Job Cottage', address: '4 Lane End', garage_id: s.garageId });
    const unitId = (created.json() as { id: string }).id;
    await t.database.db.execute(sql`update units set calendar_url = ${`${base}/feed.ics`} where id = ${unitId}`);
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    const jobsOf = () =>
      queryRows<{ state: string; later: boolean }>(
        t.database.db,
        sql`select state::text, start_after > now() + interval '50 minutes' as later from pgboss.job where name = ${CALENDAR_REFRESH_JOB} and data->>'unitId' = ${unitId} order by created_on`,
      );
    try {
      const deps: CalendarDeps = { db: t.database.db, now: () => NOW, feed: { timeoutMs: 2000, maxBytes: 1024 * 1024, allowLoopback: true }, manualRefreshes: openLimits(t.database.db).limit(MANUAL_REFRESH_LIMIT) };
      await queuedCalendarJobs(queue, deps, 60);
      await queue.boss.send(CALENDAR_REFRESH_JOB, { tenantId: s.tenantId, unitId });
      for (let i = 0; i < 60 && (await calendarRows(unitId)).length === 0; i++) await sleep(250);
      expect(await calendarRows(unitId)).toHaveLength(2);
      for (let i = 0; i < 20 && !(await jobsOf()).some((j) => j.later); i++) await sleep(250);
      expect((await jobsOf()).filter((j) => j.later && j.state === 'created')).toHaveLength(1);

      // Without a link the run queues nothing more.
      await t.database.db.execute(sql`update units set calendar_url = null where id = ${unitId}`);
      await t.database.db.execute(sql`delete from pgboss.job where name = ${CALENDAR_REFRESH_JOB} and data->>'unitId' = ${unitId}`);
      await queue.boss.send(CALENDAR_REFRESH_JOB, { tenantId: s.tenantId, unitId });
      for (let i = 0; i < 60 && !(await jobsOf()).every((j) => j.state === 'completed'); i++) await sleep(250);
      expect(await jobsOf()).toEqual([{ state: 'completed', later: false }]);
    } finally {
      await queue.stop();
    }
  }, 40_000);
});
