/**
 * The SQL forms of the forecast model's per-stay rules (model.ts, docs/product.md "Forecast"), so
 * that the database can aggregate stays and expected use without handing every stay and every
 * (property, item) pair to JavaScript. model-sql.test.ts checks each against its TypeScript form.
 */
import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_TYPICAL_GUESTS } from '../../../common/contracts/calendars';

/** SQL: nights of a stay from its dates (`date` columns), at least 1 — model.ts `nightsOf`. */
export const stayNightsSql = (arrival: SQL, departure: SQL): SQL => sql`greatest(1, (${departure}) - (${arrival}))`;

/**
 * SQL: guests of a stay as the forecast counts them (docs/product.md "Forecast"): the source's
 * number, else the property's typical number, else {@link DEFAULT_TYPICAL_GUESTS}; at least 1.
 */
export const stayGuestsSql = (guests: SQL, typicalGuests: SQL): SQL =>
  sql`greatest(1, coalesce(nullif(${guests}, 0), ${typicalGuests}, ${sql.raw(String(DEFAULT_TYPICAL_GUESTS))}))`;

/** Guests of a stay as the forecast counts them: the rule of {@link stayGuestsSql} in TypeScript. */
export function stayGuests(guests: number | null, typicalGuests: number | null): number {
  return Math.max(1, (guests === 0 ? null : guests) ?? typicalGuests ?? DEFAULT_TYPICAL_GUESTS);
}

/**
 * SQL: the expected use of `stays` stays totalling `guestNights` guest-nights at a rate — the sum
 * of model.ts `expectedUse` over those stays: f·perStay·stays + (1 − f)·perGuestNight·guestNights.
 * In double precision, as JavaScript computes it (and several times faster than numeric over a
 * company's every stock row).
 */
export const expectedUseSql = (rate: { perStay: SQL; perGuestNight: SQL; fixedShare: SQL }, stays: SQL, guestNights: SQL): SQL =>
  sql`((${rate.fixedShare})::float8 * (${rate.perStay})::float8 * (${stays})::float8
      + (1 - (${rate.fixedShare})::float8) * (${rate.perGuestNight})::float8 * (${guestNights})::float8)`;
