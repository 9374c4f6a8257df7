import { describe, expect, it } from 'vitest';
import { offlineAsOfText } from './offline-texts';
import { formatAsOf } from './offline-time';

/** ICU writes a narrow no-break space before AM/PM; compared as a plain space. */
const plain = (text: string) => text.replace(/\u202f/g, ' ');

describe('formatAsOf', () => {
  const now = Date.UTC(2026, 10, 27, 15, 0); // Fri, Nov 27 2026, 15:00 UTC
  const en = { now, locale: 'en-US', timeZone: 'UTC' };

  it('shows the time alone when the data was read today', () => {
    expect(plain(formatAsOf(Date.UTC(2026, 10, 27, 9, 30), en))).toBe('09:30 AM');
    expect(plain(offlineAsOfText(formatAsOf(Date.UTC(2026, 10, 27, 0, 5), en)))).toBe('Offline — as of 12:05 AM');
  });

  it('adds the date when it was read on another day', () => {
    expect(plain(formatAsOf(Date.UTC(2026, 10, 26, 18, 5), en))).toBe('Nov 26, 2026, 6:05 PM');
  });

  it("counts days in the browser's time zone, and writes in its language", () => {
    // 02:00 UTC on the 27th is still the 26th in Los Angeles.
    const read = Date.UTC(2026, 10, 27, 2, 0);
    expect(plain(formatAsOf(read, { now, locale: 'en-US', timeZone: 'America/Los_Angeles' }))).toBe('Nov 26, 2026, 6:00 PM');
    expect(formatAsOf(Date.UTC(2026, 10, 27, 9, 30), { now, locale: 'de-DE', timeZone: 'Europe/Berlin' })).toBe('10:30');
  });
});
