/**
 * Calendar days of a company or a property (docs/product.md "Stays"): a stay's arrival and
 * departure are the property's local dates, a pick list's day and the daily email's morning are
 * the company's. Days are 'YYYY-MM-DD' strings in an IANA time zone (`tenants.time_zone`, a
 * property's `units.time_zone` when set), computed with @date-fns/tz so that a clock change is a
 * day like any other (docs/decisions/036-local-days.md).
 */
import { TZDate, tz } from '@date-fns/tz';
import { utc } from '@date-fns/utc';
import { addDays, format } from 'date-fns';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';

/** Zones found valid: a few hundred at most, since only valid names are kept. */
const knownZones = new Set<string>();

/**
 * Whether `zone` is an IANA time zone this server knows. Valid names are remembered: building a
 * formatter to find out costs about 0.2 ms, and every forecast read asks for each zone in use.
 */
export function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return false;
  }
  knownZones.add(zone);
  return true;
}

/** The calendar day ('YYYY-MM-DD') the instant `now` falls on in `zone`. */
export function localDay(now: Date, zone: string): string {
  return format(now, 'yyyy-MM-dd', { in: tz(zone) });
}

/**
 * The instant the calendar day `day` ('YYYY-MM-DD') starts in `zone`: its midnight, or the first
 * instant after it when a clock change skips midnight there.
 */
export function localMidnight(day: string, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, zone).getTime());
}

/** `day` ('YYYY-MM-DD') plus `days` calendar days (negative: before). */
export function addLocalDays(day: string, days: number): string {
  return format(addDays(new Date(`${day}T00:00:00Z`), days, { in: utc }), 'yyyy-MM-dd', { in: utc });
}

/** The hour (0–23) of the instant `now` in `zone`. */
export function localHour(now: Date, zone: string): number {
  return Number(format(now, 'H', { in: tz(zone) }));
}

/** The company's IANA time zone, read in the caller's tenant transaction ('UTC' when it names none this server knows). */
export async function companyZone(tx: Tx, tenantId: string): Promise<string> {
  const [row] = await queryRows<{ time_zone: string }>(tx, sql`select time_zone from tenants where id = ${tenantId}`);
  return row && isTimeZone(row.time_zone) ? row.time_zone : 'UTC';
}

/**
 * The IANA time zone of property `unitId` (its own, else its company's; 'UTC' when neither names
 * one this server knows), read in the caller's tenant transaction; null when the company has no
 * such property.
 */
export async function propertyZone(tx: Tx, tenantId: string, unitId: string): Promise<string | null> {
  const [row] = await queryRows<{ own: string | null; company: string }>(
    tx,
    sql`select u.time_zone as own, t.time_zone as company from units u join tenants t on t.id = u.tenant_id
        where u.tenant_id = ${tenantId} and u.id = ${unitId}`,
  );
  if (!row) return null;
  return [row.own, row.company].find((z): z is string => z !== null && isTimeZone(z)) ?? 'UTC';
}
