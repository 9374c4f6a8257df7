/**
 * Stays read from calendar exports as Airbnb, Vrbo and Booking.com publish them, and from
 * malformed ones (docs/product.md "Stays", "Calendar links").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guestKeyOf } from '../stays/one-booking';
import { guestNameOf, guestsOf, isStayEvent, NotACalendarError, parseCalendar } from './ical';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
// Today 2026-12-01: 90 days back, 60 ahead.
const window = { timeZone: 'UTC', from: '2026-09-02', to: '2027-01-30' };

describe('calendar parsing', () => {
  it('keeps the files as published: CRLF line ends and folded lines', () => {
    const airbnb = fixture('airbnb.ics');
    expect(airbnb.split('\r\n').length).toBeGreaterThan(10);
    expect(airbnb.replaceAll('\r\n', '')).not.toContain('\n');
    expect(airbnb).toContain('\r\n tails/');
  });

  it('Airbnb: Reserved events are stays, Not available blocks and stays outside the window are not', async () => {
    expect(await parseCalendar(fixture('airbnb.ics'), window)).toEqual({
      channel: 'Airbnb',
      stays: [
        { uid: '1418fb94e984-0d1ce1d4a3e2a6c7d1d5c45d66e3c8e1@airbnb.com', arrival_date: '2026-12-03', departure_date: '2026-12-07' },
        { uid: '1418fb94e984-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@airbnb.com', arrival_date: '2026-12-07', departure_date: '2026-12-12' },
      ],
    });
  });

  it('Vrbo: Reserved - {guest} are stays; Blocked is not, nor a stay of more than 365 nights', async () => {
    expect(await parseCalendar(fixture('vrbo.ics'), window)).toEqual({
      channel: 'Vrbo',
      stays: [
        { uid: '48d2c0a5-7f1e-4b8a-9c3d-2e6f1a0b7c94', arrival_date: '2026-11-28', departure_date: '2026-12-02', guest_key: 'maria' },
        { uid: '9b0e6f13-2c4d-4e5f-8a7b-c6d5e4f3a2b1', arrival_date: '2026-12-18', departure_date: '2026-12-26', guest_key: 'thomas' },
      ],
    });
  });

  it('Booking.com: every closed period counts as a stay', async () => {
    expect(await parseCalendar(fixture('booking.ics'), window)).toEqual({
      channel: 'Booking.com',
      stays: [
        { uid: '8f3e61b0a0c5e2d9e1a2b3c4d5e6f7a8@booking.com', arrival_date: '2026-12-02', departure_date: '2026-12-04' },
        { uid: '2a4c6e8f0b1d3f5a7c9e1b3d5f7a9c1e@booking.com', arrival_date: '2026-12-10', departure_date: '2026-12-17' },
      ],
    });
  });

  it('malformed events: no end, an end before the start, an unreadable date, cancelled and a repeated UID are left out; UTC times are the property’s days', async () => {
    const stays = async (timeZone: string) => (await parseCalendar(fixture('malformed.ics'), { ...window, timeZone })).stays;
    expect(await stays('America/Los_Angeles')).toEqual([
      { uid: 'cm-1001', arrival_date: '2026-12-04', departure_date: '2026-12-08' },
      { uid: 'cm-1004', arrival_date: '2026-12-22', departure_date: '2026-12-25' },
    ]);
    expect((await stays('UTC'))[0]).toEqual({ uid: 'cm-1001', arrival_date: '2026-12-05', departure_date: '2026-12-08' });
    expect((await parseCalendar(fixture('malformed.ics'), window)).channel).toBeNull();
  });

  it('a 5,000-character SUMMARY is read like any other', async () => {
    expect((await parseCalendar(fixture('long-summary.ics'), window)).stays).toEqual([
      { uid: '77aa88bb-99cc-4dd0-8ee1-ff2233445566', arrival_date: '2026-12-11', departure_date: '2026-12-13', guest_key: 'unicode' },
    ]);
  });

  it('Abritel with a byte-order mark: the calendar is read, Indisponible and Bloqué are blocks', async () => {
    const text = fixture('abritel-bom.ics');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(await parseCalendar(text, window)).toEqual({
      channel: 'Vrbo',
      stays: [{ uid: '3f1c9a2e-5b7d-4e08-a1c6-7d2e9f0b4a31', arrival_date: '2026-12-05', departure_date: '2026-12-09', guest_key: 'martin' }],
    });
  });

  it('a channel manager: check-in and check-out markers are not stays, whole days written as UTC midnights keep their days, the party in the description gives the guests', async () => {
    expect(await parseCalendar(fixture('channel-manager.ics'), { ...window, timeZone: 'America/Los_Angeles' })).toEqual({
      channel: null,
      stays: [
        { uid: 'booking-581204@channel-manager', arrival_date: '2026-12-03', departure_date: '2026-12-07', guests: 6, guest_key: 'maria' },
        { uid: 'booking-581377@channel-manager', arrival_date: '2026-12-10', departure_date: '2026-12-13', guests: 3, guest_key: 'jonas' },
        // Times of day in UTC are still the property's days; 250 guests is past the limit of 100, so none.
        { uid: 'booking-581402@channel-manager', arrival_date: '2026-12-15', departure_date: '2026-12-18', guest_key: 'aiko' },
      ],
    });
  });

  it('block words in the languages of the channels, and markers, are not stays; bookings whose names contain such letters are', () => {
    for (const summary of ['Indisponible', 'Non disponible', 'Bloquée', 'Nicht verfügbar', 'Gesperrt', 'No disponible', 'Non disponibile', 'Indisponível', 'Niet beschikbaar', 'Check-in: Ana', 'Checkout Ana', 'check in']) {
      expect(isStayEvent(summary, ''), summary).toBe(false);
    }
    for (const summary of ['Réservé - Martin', 'Reserviert - Müller', 'Gesperrtmann family', 'Checkers club']) {
      expect(isStayEvent(summary, ''), summary).toBe(true);
    }
  });

  it('guests from the descriptions PMS exports write', () => {
    expect(guestsOf('Guests: 6')).toBe(6);
    expect(guestsOf('Reservation 12\nAdults: 4\nChildren: 2\nInfants: 1')).toBe(6);
    expect(guestsOf('adults:2')).toBe(2);
    expect(guestsOf('Guest: 1, Adults: 1')).toBe(1);
    expect(guestsOf('Children: 2')).toBeUndefined();
    expect(guestsOf('Guests: 0')).toBeUndefined();
    expect(guestsOf('Guests: 101')).toBeUndefined();
    expect(guestsOf('Phone Number (Last 4 Digits): 7710')).toBeUndefined();
  });

  it('names the guest from a description line or the summary, as a first-name key', () => {
    const key = (summary: string, description = '') => guestKeyOf(guestNameOf(summary, description));
    expect(key('Reserved - José Álvarez')).toBe('jose');
    expect(key('Réservé - Martin')).toBe('martin');
    expect(key('Reservado - Inês')).toBe('ines');
    expect(key('Ann Smith (Vrbo)')).toBe('ann');
    expect(key('Reserved', 'Guest name: Kim Lee\nGuests: 2')).toBe('kim');
    expect(key('Booking 581204', 'Name: O’Neil')).toBe('oneil');
    expect(key('Reserved')).toBeNull();
    expect(key('CLOSED - Not available')).toBeNull();
    expect(key('Booking #1001')).toBeNull();
    expect(key('')).toBeNull();
  });

  it('refuses what is not an iCal calendar', async () => {
    for (const text of [fixture('not-ical.ics'), '', '{"events": []}', 'BEGIN:VCARD\r\nVERSION:4.0\r\nEND:VCARD\r\n']) {
      await expect(parseCalendar(text, window)).rejects.toThrow(NotACalendarError);
    }
    await expect(parseCalendar(fixture('not-ical.ics'), window)).rejects.toThrow('Calendar link did not give an iCal calendar');
  });

  it('reads 10,000 events', async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 8, 2) + n * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    const events = Array.from({ length: 10_000 }, (_, i) =>
      [
        'BEGIN:VEVENT',
        `UID:bulk-${i}@example.com`,
        'DTSTAMP:20261124T101502Z',
        `DTSTART;VALUE=DATE:${day(i % 150)}`,
        `DTEND;VALUE=DATE:${day((i % 150) + 1)}`,
        'SUMMARY:Reserved',
        'END:VEVENT',
      ].join('\r\n'),
    );
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');
    const { stays } = await parseCalendar(ics, window);
    expect(stays).toHaveLength(10_000);
    expect(stays[149]).toEqual({ uid: 'bulk-149@example.com', arrival_date: '2027-01-29', departure_date: '2027-01-30' });
  }, 30_000);
});
