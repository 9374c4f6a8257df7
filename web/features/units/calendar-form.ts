/**
 * The calendar link form of Unit detail (docs/product.md "Stays", "Calendar links"): what its
 * inputs hold, the request body (the server's own field rules, decision 011), and what the
 * toasts say after a save or a refresh.
 */
import { z } from 'zod';
import { calendarUrlText, typicalGuests, type UnitCalendar } from '../../../common/contracts/calendars';

export interface CalendarDraft {
  calendar_url: string;
  /** '' for no number (2 guests). */
  typical_guests: string;
}

export const calendarDraftOf = (state: UnitCalendar): CalendarDraft => ({
  calendar_url: state.calendar_url ?? '',
  typical_guests: state.typical_guests === null ? '' : String(state.typical_guests),
});

/** Draft -> PUT /api/units/:id/calendar body; a blank link removes it, blank guests are none. */
export const calendarForm = z.object({
  calendar_url: calendarUrlText,
  typical_guests: z
    .string()
    .transform((v) => (v.trim() === '' ? null : Number(v)))
    .pipe(typicalGuests),
});

/** '1 upcoming stay', '3 upcoming stays'. */
const upcoming = (n: number) => `${n} upcoming ${n === 1 ? 'stay' : 'stays'}`;

/** The toast after a save: what the link gave, or why it could not be read. */
export function savedCalendarMessage(state: UnitCalendar): { ok: boolean; text: string } {
  if (state.calendar_url === null) return { ok: true, text: 'Calendar link removed' };
  if (state.error !== null) return { ok: false, text: `Calendar link saved, but it could not be read: ${state.error}` };
  return { ok: true, text: `Calendar link saved: ${upcoming(state.upcoming_stays)} found` };
}

/** The toast after 'Refresh now'. */
export function refreshedCalendarMessage(state: UnitCalendar): { ok: boolean; text: string } {
  if (state.error !== null) return { ok: false, text: `The calendar could not be read: ${state.error}` };
  return { ok: true, text: `Calendar refreshed: ${upcoming(state.upcoming_stays)}` };
}
