/**
 * The time of an offline screen's data ("Offline — as of 9:30 AM"), in the browser's language and
 * time zone, as the count screen writes the time of a restored draft: the time alone when it is
 * today's, the date with it when not (a cleaner may open the phone days after it last had a
 * network).
 */

export interface AsOfOptions {
  /** Now, in milliseconds since the epoch (default: the clock). */
  now?: number;
  /** BCP 47 locale (default: the browser's). */
  locale?: string;
  /** IANA time zone (default: the browser's). */
  timeZone?: string;
}

/** The calendar day of `ms` in `timeZone`, e.g. '2026-11-27', for comparing two times' days. */
function dayOf(ms: number, timeZone: string | undefined): string {
  return new Date(ms).toLocaleDateString('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
}

/**
 * When the data was last read from the server, for the offline status line.
 * @param readAt a query's `dataUpdatedAt`: milliseconds since the epoch.
 * @returns e.g. '09:30 AM' today, 'Nov 26, 2026, 6:05 PM' on another day (en-US).
 */
export function formatAsOf(readAt: number, { now = Date.now(), locale, timeZone }: AsOfOptions = {}): string {
  const at = new Date(readAt);
  if (dayOf(readAt, timeZone) === dayOf(now, timeZone)) return at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', timeZone });
  return at.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
}
