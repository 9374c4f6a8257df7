import { describe, expect, it } from 'vitest';
import type { UnitCalendar } from '../../../common/contracts/calendars';
import { addedLinkMessage, linkForm, refreshedCalendarMessage, typicalGuestsDraftOf, typicalGuestsForm } from './calendar-form';

const airbnb = 'https://www.airbnb.com/calendar/ical/1.ics?s=abc';
const vrbo = 'https://www.vrbo.com/icalendar/2.ics';
const link = (url: string, upcoming = 3, error: string | null = null) => ({ id: url, url, synced_at: null, error, upcoming_stays: upcoming });
const state: UnitCalendar = { unit_id: 'u1', typical_guests: null, links: [link(airbnb)] };
const issuesOf = (schema: typeof linkForm | typeof typicalGuestsForm, draft: unknown) => {
  const parsed = schema.safeParse(draft);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => i.message);
};

describe('calendar link dialogs', () => {
  it('turn the inputs into the request bodies: a trimmed link, blank guests as none', () => {
    expect(issuesOf(linkForm, { url: '  https://example.com/cal.ics ' })).toEqual({ url: 'https://example.com/cal.ics' });
    expect(issuesOf(typicalGuestsForm, { typical_guests: ' 4 ' })).toEqual({ typical_guests: 4 });
    expect(issuesOf(typicalGuestsForm, { typical_guests: '' })).toEqual({ typical_guests: null });
    expect(typicalGuestsDraftOf(state)).toEqual({ typical_guests: '' });
    expect(typicalGuestsDraftOf({ ...state, typical_guests: 5 })).toEqual({ typical_guests: '5' });
  });

  it('show the server’s field messages before sending', () => {
    expect(issuesOf(linkForm, { url: ' ' })).toEqual(['Calendar link is required']);
    expect(issuesOf(linkForm, { url: 'webcal://example.com/cal.ics' })).toEqual(['Calendar link must start with http:// or https://']);
    expect(issuesOf(linkForm, { url: 'https://example.com/a b' })).toEqual(['Calendar link must not contain spaces or control characters']);
    expect(issuesOf(linkForm, { url: `https://example.com/${'x'.repeat(2000)}` })).toEqual(['Calendar link must be at most 2,000 characters']);
    expect(issuesOf(typicalGuestsForm, { typical_guests: 'two' })).toEqual(['Typical guests must be a number']);
    expect(issuesOf(typicalGuestsForm, { typical_guests: '0' })).toEqual(['Typical guests must be at least 1']);
    expect(issuesOf(typicalGuestsForm, { typical_guests: '1.5' })).toEqual(['Typical guests must be a whole number']);
    expect(issuesOf(typicalGuestsForm, { typical_guests: '101' })).toEqual(['Typical guests must be at most 100']);
  });

  it('say what an added link or a refresh found', () => {
    expect(addedLinkMessage(state, airbnb)).toEqual({ ok: true, text: 'Calendar link added: 3 upcoming stays found' });
    expect(addedLinkMessage({ ...state, links: [link(airbnb, 1)] }, airbnb)).toEqual({ ok: true, text: 'Calendar link added: 1 upcoming stay found' });
    expect(addedLinkMessage({ ...state, links: [link(airbnb), link(vrbo, 0, 'Calendar link answered 404')] }, vrbo)).toEqual({
      ok: false,
      text: 'Calendar link added, but it could not be read: Calendar link answered 404',
    });
    expect(refreshedCalendarMessage({ ...state, links: [link(airbnb, 0)] })).toEqual({ ok: true, text: 'Calendar refreshed: 0 upcoming stays' });
    expect(refreshedCalendarMessage({ ...state, links: [link(airbnb, 0, 'Calendar is larger than 2 MB')] })).toEqual({
      ok: false,
      text: 'The calendar could not be read: Calendar is larger than 2 MB',
    });
    expect(refreshedCalendarMessage({ ...state, links: [link(airbnb), link(vrbo)] })).toEqual({ ok: true, text: '2 calendar links refreshed' });
    expect(refreshedCalendarMessage({ ...state, links: [link(airbnb), link(vrbo, 0, 'Calendar link answered 500')] })).toEqual({
      ok: false,
      text: '1 of 2 calendar links could not be read: Calendar link answered 500',
    });
  });
});
