/**
 * The calendar link dialogs of Unit detail (docs/product.md "Stays", "Calendar links"): what
 * their inputs hold, the request bodies (the server's own field rules, decision 011), and what the
 * toasts say after a link is added or the links refreshed.
 */
import { z } from 'zod';
import { addCalendarLinkBody, typicalGuests, type UnitCalendar } from '../../../common/contracts/calendars';

/** The 'Add calendar link' dialog's input -> POST /api/units/:id/calendar/links body. */
export const linkForm = addCalendarLinkBody;

export interface TypicalGuestsDraft {
  /** '' for no number (2 guests). */
  typical_guests: string;
}

export const typicalGuestsDraftOf = (state: UnitCalendar): TypicalGuestsDraft => ({
  typical_guests: state.typical_guests === null ? '' : String(state.typical_guests),
});

/** Draft -> PUT /api/units/:id/calendar body; blank is no number. */
export const typicalGuestsForm = z.object({
  typical_guests: z
    .string()
    .transform((v) => (v.trim() === '' ? null : Number(v)))
    .pipe(typicalGuests),
});

/** '1 upcoming stay', '3 upcoming stays'. */
export const upcomingText = (n: number) => `${n} upcoming ${n === 1 ? 'stay' : 'stays'}`;

/** The toast after link `url` was added: what it gave, or why it could not be read. */
export function addedLinkMessage(state: UnitCalendar, url: string): { ok: boolean; text: string } {
  const link = state.links.find((l) => l.url === url);
  if (!link) return { ok: true, text: 'Calendar link added' };
  if (link.error !== null) return { ok: false, text: `Calendar link added, but it could not be read: ${link.error}` };
  return { ok: true, text: `Calendar link added: ${upcomingText(link.upcoming_stays)} found` };
}

/** The toast after 'Refresh now': the first link that could not be read, else done. */
export function refreshedCalendarMessage(state: UnitCalendar): { ok: boolean; text: string } {
  const failed = state.links.filter((l) => l.error !== null);
  if (failed.length > 0) {
    const which = state.links.length === 1 ? 'The calendar' : `${failed.length} of ${state.links.length} calendar links`;
    return { ok: false, text: `${which} could not be read: ${failed[0]!.error}` };
  }
  if (state.links.length === 1) return { ok: true, text: `Calendar refreshed: ${upcomingText(state.links[0]!.upcoming_stays)}` };
  return { ok: true, text: `${state.links.length} calendar links refreshed` };
}
