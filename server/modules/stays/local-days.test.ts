import { describe, expect, it } from 'vitest';
import { addLocalDays, isTimeZone, localDay, localHour, localMidnight } from './local-days';

describe('local days', () => {
  it('takes the day of an instant in the zone, not in UTC', () => {
    // 03:30 UTC on Nov 26 is still the evening of Nov 25 in Honolulu and the morning of the 26th in Tokyo.
    const at = new Date('2026-11-26T03:30:00Z');
    expect(localDay(at, 'Pacific/Honolulu')).toBe('2026-11-25');
    expect(localDay(at, 'Asia/Tokyo')).toBe('2026-11-26');
    expect(localHour(at, 'Asia/Tokyo')).toBe(12);
  });

  it('counts a day across a clock change as one day', () => {
    // New York moves its clocks back on 2026-11-01: that day has 25 hours.
    expect(localDay(new Date('2026-11-02T04:30:00Z'), 'America/New_York')).toBe('2026-11-01');
    expect(localDay(new Date('2026-11-02T05:30:00Z'), 'America/New_York')).toBe('2026-11-02');
    expect(addLocalDays('2026-10-31', 2)).toBe('2026-11-02');
    expect(addLocalDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('starts a day at its midnight in the zone, a day of 25 hours too', () => {
    expect(localMidnight('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(localMidnight('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(localMidnight('2026-06-15', 'UTC').toISOString()).toBe('2026-06-15T00:00:00.000Z');
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Lisbon')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
