/**
 * The forecast's per-stay rules have a TypeScript home (model.ts) and an SQL one (model-sql.ts),
 * which the database uses to pre-filter the forecast: they must agree.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../db/client';
import { openTestDatabase } from '../../test/harness';
import { DEFAULT_TYPICAL_GUESTS } from '../../../common/contracts/calendars';
import { expectedUse, nightsOf, type ModelStay } from './model';
import { expectedUseSql, stayGuests, stayGuestsSql, stayNightsSql } from './model-sql';

describe('forecast model in SQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(() => database.close());

  const one = async <T>(expr: ReturnType<typeof sql>): Promise<T> =>
    (await queryRows<{ v: T }>(database.db, sql`select ${expr} as v`))[0]!.v;

  it('counts nights as nightsOf does, across a clock change and for a same-day stay', async () => {
    for (const [arrival, departure] of [['2026-03-07', '2026-03-10'], ['2026-10-31', '2026-11-02'], ['2026-11-02', '2026-11-02'], ['2026-12-30', '2027-01-02']] as const) {
      const nights = await one<number>(stayNightsSql(sql`${arrival}::date`, sql`${departure}::date`));
      expect(Number(nights), `${arrival} to ${departure}`).toBe(nightsOf({ arrival, departure }));
    }
  });

  it('counts guests as stayGuests does: the source, else the typical number, else the default', async () => {
    const cases: [number | null, number | null][] = [[3, 5], [null, 5], [null, null], [0, 4], [0, null]];
    for (const [guests, typical] of cases) {
      const v = await one<number>(stayGuestsSql(sql`${guests}::int`, sql`${typical}::int`));
      expect(Number(v), `${guests} guests, typical ${typical}`).toBe(stayGuests(guests, typical));
    }
    expect(stayGuests(null, null)).toBe(DEFAULT_TYPICAL_GUESTS);
    expect(stayGuests(3, 5)).toBe(3);
  });

  it('sums expected use as expectedUse does over the same stays', async () => {
    const rates = [
      { perStay: 2, perGuestNight: 0.5, fixedShare: 0.9692 },
      { perStay: 1.25, perGuestNight: 0.3333, fixedShare: 0 },
      { perStay: 3, perGuestNight: 0, fixedShare: 1 },
    ];
    const stays: ModelStay[] = [
      { id: 'a', arrival: '2026-06-16', departure: '2026-06-18', guests: 2 },
      { id: 'b', arrival: '2026-06-18', departure: '2026-06-25', guests: 4 },
      { id: 'c', arrival: '2026-06-25', departure: '2026-06-26', guests: 1 },
    ];
    for (const rate of rates) {
      const guestNights = stays.reduce((sum, s) => sum + s.guests * nightsOf(s), 0);
      const total = await one<string>(
        expectedUseSql(
          { perStay: sql`${rate.perStay}::numeric`, perGuestNight: sql`${rate.perGuestNight}::numeric`, fixedShare: sql`${rate.fixedShare}::numeric` },
          sql`${stays.length}::int`,
          sql`${guestNights}::int`,
        ),
      );
      const expected = stays.reduce((sum, s) => sum + expectedUse(rate, s), 0);
      expect(Number(total)).toBeCloseTo(expected, 9);
      // One stay alone is expectedUse itself.
      const single = await one<string>(
        expectedUseSql(
          { perStay: sql`${rate.perStay}::numeric`, perGuestNight: sql`${rate.perGuestNight}::numeric`, fixedShare: sql`${rate.fixedShare}::numeric` },
          sql`1`,
          sql`${stays[1]!.guests * nightsOf(stays[1]!)}::int`,
        ),
      );
      expect(Number(single)).toBeCloseTo(expectedUse(rate, stays[1]!), 9);
    }
  });
});
