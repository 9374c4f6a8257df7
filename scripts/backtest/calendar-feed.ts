/**
 * Calendar exports as Airbnb's and Hostaway's are, served on loopback for the backtest and its
 * tests (docs/forecast.md "Backtest"): each property's feed lists its bookings that have not
 * ended — departing after the feed's day — and nothing older, so a stay leaves the feed once it
 * is over (docs/decisions/044-calendar-text-and-history.md). Events are whole days
 * (DTSTART/DTEND VALUE=DATE, the property's dates, checkout day exclusive) with SUMMARY
 * 'Reserved' and Airbnb's PRODID, written by ical.js, the parser's own library.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';

/** A booking of a feed: its event's UID and the property's dates ('YYYY-MM-DD', arrival < departure). */
export interface FeedBooking {
  uid: string;
  arrival: string;
  departure: string;
}

/** The loopback feeds of a company's properties. */
export interface FutureOnlyFeeds {
  /**
   * The bookings of each property (by unit id), read at every request: a caller may change them
   * between reads, as a channel does when a booking is made or cancelled.
   */
  readonly bookings: Map<string, FeedBooking[]>;
  /** The day ('YYYY-MM-DD', the properties' own) the feeds are read on: they list the bookings departing after it. */
  today: string;
  /** The link of unit `unitId`'s feed (http://127.0.0.1:{port}/…). */
  linkOf(unitId: string): string;
  /** Stops the server. */
  close(): Promise<void>;
}

/** The iCal text of the `bookings` that depart after `today`, as Airbnb exports them. */
export function futureOnlyCalendar(bookings: readonly FeedBooking[], today: string): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('prodid', '-//Airbnb Inc//Hosting Calendar 0.8.8//EN');
  calendar.updatePropertyWithValue('version', '2.0');
  for (const booking of bookings) {
    if (booking.departure <= today) continue;
    const event = new ICAL.Component('vevent');
    event.updatePropertyWithValue('uid', booking.uid);
    event.updatePropertyWithValue('dtstart', ICAL.Time.fromDateString(booking.arrival));
    event.updatePropertyWithValue('dtend', ICAL.Time.fromDateString(booking.departure));
    event.updatePropertyWithValue('summary', 'Reserved');
    calendar.addSubcomponent(event);
  }
  return `${calendar.toString()}\r\n`;
}

/**
 * Serves a feed per property of `bookings` (unit id → its bookings) on 127.0.0.1, on a port the
 * system picks: GET /calendars/{unit id}.ics answers {@link futureOnlyCalendar} of that property's
 * bookings as of the feeds' `today`, `today` here until changed; any other path answers 404.
 * Reading it through the calendar service needs the feed option `allowLoopback`.
 */
export async function serveFutureOnlyFeeds(bookings: Map<string, FeedBooking[]>, today: string): Promise<FutureOnlyFeeds> {
  const feeds = { bookings, today };
  const server = createServer((req, res) => {
    const unitId = /^\/calendars\/([^/]+)\.ics$/.exec(req.url ?? '')?.[1];
    const listed = unitId === undefined ? undefined : feeds.bookings.get(decodeURIComponent(unitId));
    if (!listed) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(futureOnlyCalendar(listed, feeds.today));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(feeds, {
    linkOf: (unitId: string) => `${base}/calendars/${encodeURIComponent(unitId)}.ics`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  });
}
