/**
 * Report periods count UTC days (docs/product.md "Reports"; docs/decisions/017-dates.md) even on a
 * server whose own time zone has daylight saving time: here New York, across the change of
 * 2026-03-08, when a local day lasts 23 hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRange } from './assistant/shared';
import { costPeriod } from './costs';
import { splitSpan } from './usage-sql';

describe('report periods on a server in New York', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
  const d = (iso: string) => new Date(iso);

  it('runs in that zone', () => {
    expect(d('2026-03-10T12:00:00Z').getTimezoneOffset()).toBe(240);
    expect(d('2026-03-01T12:00:00Z').getTimezoneOffset()).toBe(300);
  });

  it('takes Last Week, Last Month and the assistant ranges as whole 24-hour days before now', () => {
    const now = d('2026-03-10T12:00:00Z');
    expect(costPeriod({ period: 'week' }, now)).toEqual({ start: d('2026-03-03T12:00:00Z'), end: now });
    expect(costPeriod({ period: 'month' }, now)).toEqual({ start: d('2026-02-08T12:00:00Z'), end: now });
    expect(reportRange(now, 7, 50)).toMatchObject({ start: d('2026-03-03T12:00:00Z'), end: now });
  });

  it('takes a custom range from the start date at midnight UTC to the midnight UTC after the end date', () => {
    expect(costPeriod({ period: 'custom', start: '2026-03-07', end: '2026-03-08' }, d('2026-03-10T12:00:00Z'))).toEqual({
      start: d('2026-03-07T00:00:00Z'),
      end: d('2026-03-09T00:00:00Z'),
    });
  });

  it('splits spans at UTC midnights into UTC days and Monday-to-Sunday UTC weeks', () => {
    expect(splitSpan(d('2026-03-02T00:00:00Z'), d('2026-03-17T00:00:00Z'), [], { weeks: true })).toEqual({
      weeks: ['2026-03-02', '2026-03-09'],
      days: ['2026-03-16'],
      pieces: [],
    });
    expect(splitSpan(d('2026-03-07T18:00:00Z'), d('2026-03-09T06:00:00Z'))).toEqual({
      weeks: [],
      days: ['2026-03-08'],
      pieces: [
        { start: d('2026-03-07T18:00:00Z'), end: d('2026-03-08T00:00:00Z') },
        { start: d('2026-03-09T00:00:00Z'), end: d('2026-03-09T06:00:00Z') },
      ],
    });
  });
});
