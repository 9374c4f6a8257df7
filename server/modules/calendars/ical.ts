/**
 * Stays from a property's calendar link (docs/product.md "Stays", "Calendar links"): the iCal
 * text the platform exports, parsed with ical.js, as stays { uid, arrival_date, departure_date }
 * in the property's own calendar dates ('YYYY-MM-DD').
 *
 * Dates. Platforms export whole days: DTSTART is the arrival day and DTEND the checkout day
 * (DATE values, RFC 5545's exclusive end). A DATE-TIME in UTC ('Z') is taken as the day it falls
 * on in the property's time zone — except an event starting and ending at exactly 00:00:00Z,
 * which is whole days written as UTC midnights (some channel managers) and keeps the days written;
 * a floating one, or one with a TZID, as the day written (the property's own). An event without
 * DTEND takes its DURATION; with neither it is no stay.
 *
 * Text. A byte-order mark before BEGIN:VCALENDAR is dropped (Windows and some PHP/.NET exporters
 * write one).
 *
 * Guests. A DESCRIPTION giving the party as PMS exports write it — 'Guests: 6', or 'Adults: 4'
 * with 'Children: 2' (infants are not counted) — gives the stay its number of guests (1 to 100);
 * otherwise the stay has none and the forecast uses the property's typical guests. The guest's
 * name, from a DESCRIPTION line 'Guest: Jane Doe' or the SUMMARY ('Reserved - Jane', 'Jane Doe
 * (Airbnb)'), is kept only as a matching key (its first name) that tells one booking listed by two
 * sources (stays/one-booking.ts).
 *
 * Which events are stays, by SUMMARY (the platforms' exports as published):
 * - Airbnb: 'Reserved' is a booking; 'Airbnb (Not available)' a date the host blocked — not a stay.
 * - Vrbo: 'Reserved - {guest}' is a booking; 'Blocked' dates are not.
 * - Booking.com: every closed period is 'CLOSED - Not available', bookings and blocks alike; in
 *   practice they are bookings, so they count.
 * - Any other calendar: every event counts, except those whose SUMMARY says 'Blocked',
 *   'Not available' or 'Unavailable' — or the same in the languages of the channels' sites
 *   ({@link BLOCK_WORDS}: Abritel's 'Indisponible', FeWo-direkt's 'Nicht verfügbar', …) —,
 *   check-in and check-out markers that some channel managers add beside the booking
 *   ('Check-in: {guest}', 'Check-out: {guest}'), and cancelled ones (STATUS:CANCELLED).
 * Stays of more than {@link MAX_STAY_NIGHTS} nights, events ending on or before they start, and
 * events entirely outside the window asked for are left out; a UID met twice is kept once (its
 * first event: a recurring event's exceptions are not stays of their own). The reasons:
 * docs/decisions/030-calendar-links.md.
 *
 * ical.js is loaded on the first calendar read, not at boot (docs/decisions/
 * 025-server-as-shipped.md "SDKs loaded on first use").
 */
import type ICAL from 'ical.js';
import { differenceInCalendarDays } from 'date-fns';
import { utc } from '@date-fns/utc';
import { localDay } from '../stays/local-days';
import { guestKeyOf } from '../stays/one-booking';

/** Longest stay kept, in nights: longer events are owner blocks or errors, not guests. */
export const MAX_STAY_NIGHTS = 365;

/** A stay read from a calendar: its event's UID, the property's local dates, and its guests when the event gives them. */
export interface CalendarStay {
  uid: string;
  arrival_date: string;
  departure_date: string;
  guests?: number;
  /** The guest's first name as a matching key (stays/one-booking.ts guestKeyOf), when the event names the guest. */
  guest_key?: string;
}

/**
 * SUMMARY words of a date the host closed, not a booking, in the languages of the channels' sites
 * (Vrbo's Abritel, FeWo-direkt, Stayz and Bookabach; Airbnb's and Booking.com's local sites):
 * English, French, German, Spanish, Italian, Portuguese and Dutch.
 */
export const BLOCK_WORDS = [
  'blocked', 'not available', 'unavailable',
  'indisponible', 'non disponible', 'bloqué', 'bloquée',
  'nicht verfügbar', 'blockiert', 'gesperrt',
  'no disponible', 'bloqueado', 'bloqueada',
  'non disponibile', 'bloccato', 'bloccata',
  'indisponível',
  'niet beschikbaar', 'geblokkeerd',
] as const;

const blockPattern = new RegExp(`(?<!\\p{L})(?:${BLOCK_WORDS.join('|')})(?!\\p{L})`, 'iu');
const markerPattern = /^check[\s-]?(?:in|out)\b/i;

/** Most guests a stay may give: the typical guests' limit (docs/product.md "Calendar links"). */
const MAX_GUESTS = 100;

/** The guests a DESCRIPTION gives (see the module's comment), or undefined. */
export function guestsOf(description: string): number | undefined {
  const count = (word: string) => {
    const m = new RegExp(`\\b${word}\\s*:\\s*(\\d{1,4})\\b`, 'i').exec(description);
    return m ? Number(m[1]) : undefined;
  };
  const adults = count('adults?');
  const total = count('guests?') ?? (adults === undefined ? undefined : adults + (count('children') ?? 0));
  return total !== undefined && total >= 1 && total <= MAX_GUESTS ? total : undefined;
}

/**
 * The text of an event that names its guest (see the module's comment): a DESCRIPTION line
 * 'Guest: …', 'Guest name: …' or 'Name: …', else the SUMMARY without what is in brackets ('Jane
 * Doe (Airbnb)'); guestKeyOf skips the booking words around the name ('Reserved - Jane').
 */
export function guestNameOf(summary: string, description: string): string {
  const line = /^\s*(?:guest(?:\s*name)?|name)\s*:\s*(.+)$/im.exec(description);
  return line ? line[1]!.trim() : summary.replace(/\([^)]*\)/g, ' ').trim();
}

/** The calendar's text is not iCal; `message` is person-facing (docs/product.md "Messages"). */
export class NotACalendarError extends Error {
  constructor() {
    super('Calendar link did not give an iCal calendar');
  }
}

export interface ParsedCalendar {
  stays: CalendarStay[];
  /** The platform, from the calendar's PRODID ('Airbnb', 'Vrbo', 'Booking.com'), else null. */
  channel: string | null;
}

/** The platform that wrote the calendar, from its PRODID. */
function channelOf(prodid: string): string | null {
  const p = prodid.toLowerCase();
  if (p.includes('airbnb')) return 'Airbnb';
  if (p.includes('homeaway') || p.includes('vrbo')) return 'Vrbo';
  if (p.includes('booking.com')) return 'Booking.com';
  return null;
}

/** Whether an event of this SUMMARY and STATUS is a stay (see the module's comment). */
export function isStayEvent(summary: string, status: string): boolean {
  if (status.toUpperCase() === 'CANCELLED') return false;
  const s = summary.trim();
  if (/^reserved\b/i.test(s) || /^closed\b/i.test(s)) return true;
  return !markerPattern.test(s) && !blockPattern.test(s);
}

/** Whether an ical.js time is a DATE-TIME at exactly 00:00:00 UTC. */
const isUtcMidnight = (time: ICAL.Time) => !time.isDate && time.zone?.tzid === 'UTC' && time.hour === 0 && time.minute === 0 && time.second === 0;

/** The property's calendar day of an ical.js time (see the module's comment); `timeZone` null keeps the day written. */
function dayOf(time: ICAL.Time, timeZone: string | null): string {
  if (timeZone !== null && !time.isDate && time.zone?.tzid === 'UTC') return localDay(time.toJSDate(), timeZone);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The stay an event is, or null (see the module's comment); an event with unreadable values is none. */
function stayOf(ical: typeof ICAL, event: ICAL.Component, opts: { timeZone: string; from: string; to: string }): CalendarStay | null {
  try {
    if (!isStayEvent(text(event.getFirstPropertyValue('summary')), text(event.getFirstPropertyValue('status')))) return null;
    const start = event.getFirstPropertyValue('dtstart');
    if (!(start instanceof ical.Time)) return null;
    let end = event.getFirstPropertyValue('dtend');
    if (!(end instanceof ical.Time)) {
      const duration = event.getFirstPropertyValue('duration');
      if (!(duration instanceof ical.Duration)) return null;
      end = start.clone();
      end.addDuration(duration);
    }
    const wholeDays = isUtcMidnight(start) && isUtcMidnight(end as ICAL.Time);
    const arrival = dayOf(start, wholeDays ? null : opts.timeZone);
    const departure = dayOf(end as ICAL.Time, wholeDays ? null : opts.timeZone);
    const nights = differenceInCalendarDays(new Date(`${departure}T00:00:00Z`), new Date(`${arrival}T00:00:00Z`), { in: utc });
    if (!(nights >= 1 && nights <= MAX_STAY_NIGHTS)) return null;
    if (departure < opts.from || arrival > opts.to) return null;
    // An event without a UID is known by its dates: the same dates give the same stay.
    const uid = text(event.getFirstPropertyValue('uid')).trim() || `${arrival}/${departure}`;
    const description = text(event.getFirstPropertyValue('description'));
    const guests = guestsOf(description);
    const guestKey = guestKeyOf(guestNameOf(text(event.getFirstPropertyValue('summary')), description));
    return {
      uid,
      arrival_date: arrival,
      departure_date: departure,
      ...(guests === undefined ? {} : { guests }),
      ...(guestKey === null ? {} : { guest_key: guestKey }),
    };
  } catch {
    // ical.js decodes a value when it is read: a date like 'garbage' throws here.
    return null;
  }
}

/**
 * The stays of calendar `ics`, those that overlap `from`..`to` (the property's days, both
 * included: departing on `from` or later and arriving on `to` or before).
 * `timeZone` is the property's IANA zone, for DATE-TIME values in UTC.
 * @throws NotACalendarError (the promise rejects) when `ics` is not an iCal calendar (VCALENDAR).
 */
export async function parseCalendar(ics: string, opts: { timeZone: string; from: string; to: string }): Promise<ParsedCalendar> {
  const { default: ical } = await import('ical.js');
  let root: ICAL.Component;
  try {
    root = new ical.Component(ical.parse(ics.replace(/^\uFEFF/, '')) as unknown[]);
  } catch {
    throw new NotACalendarError();
  }
  if (root.name !== 'vcalendar') throw new NotACalendarError();
  const seen = new Set<string>();
  const stays: CalendarStay[] = [];
  for (const event of root.getAllSubcomponents('vevent')) {
    const stay = stayOf(ical, event, opts);
    if (!stay || seen.has(stay.uid)) continue;
    seen.add(stay.uid);
    stays.push(stay);
  }
  return { stays, channel: channelOf(text(root.getFirstPropertyValue('prodid'))) };
}
