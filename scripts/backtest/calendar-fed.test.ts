/**
 * A calendar-fed company learns from its links' stays (docs/forecast.md "Backtest",
 * docs/decisions/044-calendar-text-and-history.md): two properties whose bookings come only
 * through future-only feeds on loopback (calendar-feed.ts), read once a day for five weeks
 * through the backtest's adapter (calendar-links.ts) while the cleaners record the towels each
 * stay used at its checkout. The forecast then learns each property's own rate from the stays
 * that ended, though no feed lists them any more, and not from a booking cancelled before it began.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIOR_STAYS } from '../../common/contracts/forecast';
import { pgArray, queryRows } from '../../server/db/client';
import { addLocalDays } from '../../server/modules/stays/local-days';
import { company, ok, type Company } from '../../server/test/forecast-fixtures';
import { api, backends, createTestApp, type TestApp } from '../../server/test/harness';
import { serveFutureOnlyFeeds, type FeedBooking, type FutureOnlyFeeds } from './calendar-feed';
import { attachLink, linkDeps, readLinks } from './calendar-links';

/** The first and the last day read (the company's time zone is UTC); the forecast is asked for on the last. */
const FIRST = '2026-03-01';
const LAST = '2026-04-05';
const noon = (day: string) => new Date(`${day}T12:00:00Z`);

/** `count` bookings of `nights` nights, one every `every` days from `first`, with UIDs '{prefix}{k}@airbnb.com'. */
const series = (prefix: string, first: string, count: number, every: number, nights: number): FeedBooking[] =>
  Array.from({ length: count }, (_, k) => {
    const arrival = addLocalDays(first, k * every);
    return { uid: `${prefix}${k}@airbnb.com`, arrival, departure: addLocalDays(arrival, nights) };
  });

describe.each(backends)('a calendar-fed company (%s)', (backend) => {
  let t: TestApp;
  let c: Company;
  let feeds: FutureOnlyFeeds;
  let [beach, cliff, towel] = ['', '', ''];
  // Beach House: 3-night stays every 4 days, 2 towels each; Cliff Cottage: 5-night stays every
  // 7 days, 4 towels each, and a 2-night booking between two of them, cancelled on 03-06.
  const beachStays = series('beach-', '2026-03-02', 10, 4, 3);
  const cliffStays = series('cliff-', '2026-03-03', 6, 7, 5);
  const cancelled: FeedBooking = { uid: 'cliff-cancelled@airbnb.com', arrival: '2026-03-08', departure: '2026-03-10' };
  const towelsPerStay = (unit: string) => (unit === beach ? 2 : 4);
  const endedBy = (stays: FeedBooking[], day: string) => stays.filter((s) => s.departure < day).length;

  beforeAll(async () => {
    // The company signs up on the first day: its trial must outlast the five weeks.
    t = await createTestApp(backend, { trialDays: 60 });
    t.setNow(noon(FIRST));
    c = await company(t, 'calendar-fed@example.com', ['Beach House', 'Cliff Cottage']);
    [beach, cliff, towel] = [c.unit['Beach House']!, c.unit['Cliff Cottage']!, c.item['Bath Towel']!];
    ok(await api(t, c.cookie, 'PUT', `/api/garages/${c.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 200 }] }));
    for (const unit of [beach, cliff]) ok(await api(t, c.cookie, 'POST', `/api/units/${unit}/inventory/${towel}/transfer`, { quantity: 60 }));
    feeds = await serveFutureOnlyFeeds(new Map([[beach, beachStays], [cliff, [...cliffStays, cancelled]]]), FIRST);

    const me = ok<{ user: { id: string; email: string } }>(await api(t, c.cookie, 'GET', '/api/me'));
    const deps = linkDeps(t.database.db, () => noon(FIRST));
    const who = { userId: me.user.id, email: me.user.email, tenantId: c.tenantId, role: 'owner' as const };
    for (const unit of [beach, cliff]) await attachLink(deps, who, unit, feeds.linkOf(unit));
    for (let day = FIRST; day <= LAST; day = addLocalDays(day, 1)) {
      t.setNow(noon(day));
      feeds.today = day;
      if (day === '2026-03-06') feeds.bookings.set(cliff, cliffStays);
      await readLinks(deps, c.tenantId, [beach, cliff], noon(day));
      if (day === LAST) break; // the forecast's day: its checkouts are not recorded yet
      // The checkouts of the day: the towels each stay used, recorded at noon (a movement is
      // written at the wall clock's time, so it is moved to its simulated day).
      for (const [unit, stays] of [[beach, beachStays], [cliff, cliffStays]] as const) {
        for (let n = stays.filter((s) => s.departure === day).length; n > 0; n--) {
          const res = ok<{ movement_ids: string[] }>(await api(t, c.cookie, 'POST', `/api/units/${unit}/inventory/${towel}/consume`, { quantity: towelsPerStay(unit) }));
          await t.database.db.execute(sql`update inventory_logs set created_at = ${noon(day).toISOString()}::timestamptz
            where tenant_id = ${c.tenantId} and id = any(${pgArray(res.movement_ids)}::uuid[])`);
        }
      }
    }
  });
  afterAll(async () => {
    await feeds?.close();
    await t?.close();
  });

  it('keeps the stays that ended though the feeds no longer list them, and cancels the booking that left before it began', async () => {
    const rows = await queryRows<{ unit_id: string; source: string; arrival_date: string; departure_date: string; status: string }>(
      t.database.db,
      sql`select unit_id, source, arrival_date::text, departure_date::text, status from reservations
          where tenant_id = ${c.tenantId} order by unit_id, arrival_date`,
    );
    const of = (unit: string, status: string) => rows.filter((r) => r.unit_id === unit && r.status === status).map((r) => [r.arrival_date, r.departure_date]);
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(['calendar']));
    // Every booking the feeds listed before its arrival, ended or still ahead, is a stay,
    expect(of(beach, 'confirmed')).toEqual(beachStays.map((s) => [s.arrival, s.departure]));
    expect(of(cliff, 'confirmed')).toEqual(cliffStays.map((s) => [s.arrival, s.departure]));
    expect(of(cliff, 'cancelled')).toEqual([[cancelled.arrival, cancelled.departure]]);
    // though on the last day the feeds list none of those that ended.
    const listed = (await Promise.all([beach, cliff].map(async (unit) => (await fetch(feeds.linkOf(unit))).text()))).join('');
    const ended = [...beachStays, ...cliffStays].filter((s) => s.departure <= LAST);
    expect(ended.length).toBeGreaterThan(0);
    for (const stay of ended) expect(listed).not.toContain(stay.uid);
  });

  it("learns each property's own towel rate from its past stays, as many as ended", async () => {
    const rateOf = async (unit: string) => {
      const answer = ok<{ items: { item_id: string; rate: { per_stay: number; per_guest_night: number; stays: number; basis: string } }[] }>(
        await api(t, c.cookie, 'GET', `/api/units/${unit}/forecast`),
      );
      return answer.items.find((i) => i.item_id === towel)!.rate;
    };
    const [beachEnded, cliffEnded] = [endedBy(beachStays, LAST), endedBy(cliffStays, LAST)];
    expect([beachEnded, cliffEnded]).toEqual([8, 4]);
    // Own rates 2 and 4 towels a stay; the company's is their median, 3; each property leans on it
    // by PRIOR_STAYS stays (forecast/model.ts).
    const shrunk = (ended: number, own: number) => (ended * own + PRIOR_STAYS * 3) / (ended + PRIOR_STAYS);
    const beachRate = await rateOf(beach);
    expect(beachRate).toMatchObject({ basis: 'property', stays: beachEnded });
    expect(beachRate.per_stay).toBeCloseTo(shrunk(beachEnded, 2), 4);
    const cliffRate = await rateOf(cliff);
    expect(cliffRate).toMatchObject({ basis: 'property', stays: cliffEnded });
    expect(cliffRate.per_stay).toBeCloseTo(shrunk(cliffEnded, 4), 4);
  });
});
