/**
 * A property's calendar links (docs/product.md "Stays", "Calendar links"): the iCal export URLs of
 * its listings on Airbnb, Vrbo, Booking.com or a PMS, and the guests a stay is taken to have when
 * its calendar gives none. The dialogs use the same schemas as the server, so a person sees the
 * server's message before sending (decision 011).
 */
import { z } from 'zod';

/** Links a property may have (one per channel it is listed on, and its PMS's). */
export const MAX_CALENDAR_LINKS = 5;

/** Longest calendar link, in characters. */
export const MAX_CALENDAR_URL_LENGTH = 2000;

/**
 * Guests a stay is taken to have when its source gives none and the property sets no typical
 * number (docs/product.md "Stays"): the forms show it, the forecast and the daily email count it.
 */
export const DEFAULT_TYPICAL_GUESTS = 2;

/** Most guests a property may be said to take per stay (also a CHECK on units, migration 0022). */
export const MAX_TYPICAL_GUESTS = 100;

/** C0/C1 control characters, unpaired surrogates and spaces, none of which belong in a link. */
const CONTROL_OR_SPACE = /[\p{Cc}\p{Cs}\s]/u;

/** The rules of a link: http(s), at most MAX_CALENDAR_URL_LENGTH characters, one line. */
const calendarLink = z
  .string()
  .max(MAX_CALENDAR_URL_LENGTH, `Calendar link must be at most ${MAX_CALENDAR_URL_LENGTH.toLocaleString('en-US')} characters`)
  .refine((s) => !CONTROL_OR_SPACE.test(s), 'Calendar link must not contain spaces or control characters')
  .refine((s) => /^https?:\/\//i.test(s), 'Calendar link must start with http:// or https://')
  .refine((s) => URL.canParse(s), 'Calendar link is not a valid web address');

/** A link as typed, trimmed: the 'Add calendar link' dialog's field. */
export const calendarUrlText = z.string('Calendar link must be text').trim().min(1, 'Calendar link is required').pipe(calendarLink);

/** Guests per stay, 1..MAX_TYPICAL_GUESTS, or null (2, the default). */
export const typicalGuests = z
  .number('Typical guests must be a number')
  .int('Typical guests must be a whole number')
  .min(1, 'Typical guests must be at least 1')
  .max(MAX_TYPICAL_GUESTS, `Typical guests must be at most ${MAX_TYPICAL_GUESTS}`)
  .nullable();

/** PUT /api/units/:id/calendar: the property's typical guests. */
export const saveTypicalGuestsBody = z.strictObject({ typical_guests: typicalGuests });
export type SaveTypicalGuestsBody = z.infer<typeof saveTypicalGuestsBody>;

/** POST /api/units/:id/calendar/links: a link to add. */
export const addCalendarLinkBody = z.strictObject({ url: calendarUrlText });
export type AddCalendarLinkBody = z.infer<typeof addCalendarLinkBody>;

/** DELETE /api/units/:id/calendar/links/:linkId. */
export const calendarLinkParams = z.object({ id: z.uuid(), linkId: z.uuid() });

/** One calendar link of a property and the state of its last read. */
export const calendarLinkState = z.object({
  id: z.string(),
  url: z.string(),
  /** When the link was last read successfully (ISO instant), or null. */
  synced_at: z.string().nullable(),
  /** Why the last read failed, or null once one succeeds. */
  error: z.string().nullable(),
  /** The link's stays under way or ahead (departing after the property's today), those another source also lists included. */
  upcoming_stays: z.number().int(),
});
export type CalendarLinkState = z.infer<typeof calendarLinkState>;

/** A property's calendar links, oldest first, and its typical guests. */
export const unitCalendar = z.object({
  unit_id: z.string(),
  typical_guests: z.number().int().nullable(),
  links: z.array(calendarLinkState),
});
export type UnitCalendar = z.infer<typeof unitCalendar>;
