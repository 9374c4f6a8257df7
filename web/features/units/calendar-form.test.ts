import { describe, expect, it } from 'vitest';
import type { UnitCalendar } from '../../../common/contracts/calendars';
import { calendarDraftOf, calendarForm, refreshedCalendarMessage, savedCalendarMessage } from './calendar-form';

const state: UnitCalendar = { unit_id: 'u1', calendar_url: 'https://www.airbnb.com/calendar/ical/1.ics?s=abc', typical_guests: null, synced_at: null, error: null, upcoming_stays: 3 };
const messageOf = (draft: { calendar_url: string; typical_guests: string }) => {
  const parsed = calendarForm.safeParse(draft);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => i.message);
};

describe('calendar link form', () => {
  it('turns the inputs into the request body: blank link and guests are none', () => {
    expect(messageOf({ calendar_url: '  https://example.com/cal.ics ', typical_guests: ' 4 ' })).toEqual({ calendar_url: 'https://example.com/cal.ics', typical_guests: 4 });
    expect(messageOf({ calendar_url: ' ', typical_guests: '' })).toEqual({ calendar_url: null, typical_guests: null });
    expect(calendarDraftOf(state)).toEqual({ calendar_url: state.calendar_url, typical_guests: '' });
    expect(calendarDraftOf({ ...state, calendar_url: null, typical_guests: 5 })).toEqual({ calendar_url: '', typical_guests: '5' });
  });

  it('shows the server’s field messages before sending', () => {
    expect(messageOf({ calendar_url: 'webcal://example.com/cal.ics', typical_guests: '' })).toEqual(['Calendar link must start with http:// or https://']);
    expect(messageOf({ calendar_url: 'https://example.com/a b', typical_guests: '' })).toEqual(['Calendar link must not contain spaces or control characters']);
    expect(messageOf({ calendar_url: `https://example.com/${'x'.repeat(2000)}`, typical_guests: '' })).toEqual(['Calendar link must be at most 2,000 characters']);
    expect(messageOf({ calendar_url: '', typical_guests: 'two' })).toEqual(['Typical guests must be a number']);
    expect(messageOf({ calendar_url: '', typical_guests: '0' })).toEqual(['Typical guests must be at least 1']);
    expect(messageOf({ calendar_url: '', typical_guests: '1.5' })).toEqual(['Typical guests must be a whole number']);
    expect(messageOf({ calendar_url: '', typical_guests: '101' })).toEqual(['Typical guests must be at most 100']);
  });

  it('says what a save or a refresh found', () => {
    expect(savedCalendarMessage(state)).toEqual({ ok: true, text: 'Calendar link saved: 3 upcoming stays found' });
    expect(savedCalendarMessage({ ...state, upcoming_stays: 1 })).toEqual({ ok: true, text: 'Calendar link saved: 1 upcoming stay found' });
    expect(savedCalendarMessage({ ...state, error: 'Calendar link answered 404' })).toEqual({
      ok: false,
      text: 'Calendar link saved, but it could not be read: Calendar link answered 404',
    });
    expect(savedCalendarMessage({ ...state, calendar_url: null })).toEqual({ ok: true, text: 'Calendar link removed' });
    expect(refreshedCalendarMessage({ ...state, upcoming_stays: 0 })).toEqual({ ok: true, text: 'Calendar refreshed: 0 upcoming stays' });
    expect(refreshedCalendarMessage({ ...state, error: 'Calendar is larger than 2 MB' })).toEqual({ ok: false, text: 'The calendar could not be read: Calendar is larger than 2 MB' });
  });
});
