/**
 * Reservations of a company's imported properties, kept as Hostaway has them (docs/product.md
 * "Import from Hostaway"): from 90 days back to 60 days ahead, read in full by the periodic sync
 * and one by one when a webhook says a reservation changed. A reservation is always read again
 * from Hostaway, never taken from the webhook, and an older copy (by Hostaway's `updatedOn`)
 * never replaces a newer one, so repeated and out-of-order events change nothing wrongly.
 * Reservations of listings that are not imported, and those without real dates
 * (`isDatesUnspecified`), are left out. Each write records its stay events (stays/stay-events.ts).
 */
import { utc } from '@date-fns/utc';
import { addDays, format } from 'date-fns';
import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { UpcomingStay } from '../../../common/contracts/listings-import';
import type { Db, Tx } from '../../db/client';
import { providerCredentials, reservations } from '../../db/schema/integrations';
import { units } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import type { HostawayReservation } from '../../integrations/hostaway';
import { notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';
import { addLocalDays, localDay, propertyZone } from '../stays/local-days';
import { alsoListed, guestKeyOf, matchCalendarStays } from '../stays/one-booking';
import { recordStayChanges, staysBefore } from '../stays/stay-events';
import { isStay } from '../stays/stay-rules';
import { openSession, type HostawayDeps } from './credentials';

/** Days back and ahead of today the sync keeps. */
export const SYNC_DAYS_BACK = 90;
export const SYNC_DAYS_AHEAD = 60;
/** Days ahead "Upcoming stays" shows. */
export const UPCOMING_DAYS = 14;

const day = (d: Date) => format(d, 'yyyy-MM-dd', { in: utc });

/** The company's imported units by listing id. */
async function unitsByListing(tx: Tx, tenantId: string): Promise<Map<number, string>> {
  const rows = await tx
    .select({ id: units.id, externalId: units.externalId })
    .from(units)
    .where(and(eq(units.tenantId, tenantId), isNotNull(units.externalId)));
  return new Map(rows.map((r) => [Number(r.externalId), r.id]));
}

/** Writes `r` unless it has no real dates or no imported unit; an older copy than the stored one changes nothing. */
async function upsert(tx: Tx, tenantId: string, byListing: Map<number, string>, r: HostawayReservation): Promise<boolean> {
  const unitId = byListing.get(r.listingMapId);
  if (!unitId || r.isDatesUnspecified === 1) return false;
  const values = {
    arrivalDate: r.arrivalDate,
    departureDate: r.departureDate,
    nights: r.nights ?? null,
    guests: r.numberOfGuests ?? null,
    adults: r.adults ?? null,
    children: r.children ?? null,
    guestKey: guestKeyOf(r.guestFirstName ?? r.guestName),
    status: r.status,
    channel: r.channelName ?? null,
    updatedOn: r.updatedOn ?? null,
    unitId,
    syncedAt: sql`now()`,
  };
  await tx
    .insert(reservations)
    .values({ tenantId, source: 'hostaway', id: String(r.id), ...values })
    .onConflictDoUpdate({
      target: [reservations.tenantId, reservations.source, reservations.id],
      set: values,
      // Hostaway's updatedOn is 'Y-m-d H:i:s': ordered as text.
      setWhere: sql`${reservations.updatedOn} is null or excluded.updated_on is null or excluded.updated_on >= ${reservations.updatedOn}`,
    });
  return true;
}

/**
 * Reads every reservation of the company's account in the sync window (paged by `afterId`) and
 * stores those of imported properties; reservations of the window that Hostaway no longer lists
 * are removed, and the calendar links' stays matched to them (stays/one-booking.ts). Records the
 * time on success and the reason on failure (then rethrows).
 * @returns how many reservations were stored.
 */
export async function syncReservations(deps: HostawayDeps, tenantId: string): Promise<{ stored: number }> {
  const today = deps.now();
  const from = day(addDays(today, -SYNC_DAYS_BACK, { in: utc }));
  const to = day(addDays(today, SYNC_DAYS_AHEAD, { in: utc }));
  try {
    const session = await openSession(deps, tenantId);
    const found = await deps.client.listReservations(session, { departureStartDate: from, arrivalEndDate: to });
    return await withTenant(deps.db, tenantId, async (tx) => {
      const byListing = await unitsByListing(tx, tenantId);
      const before = await staysBefore(tx, tenantId);
      let stored = 0;
      for (const r of found) if (await upsert(tx, tenantId, byListing, r)) stored++;
      const seen = found.map((r) => String(r.id));
      await tx.delete(reservations).where(
        and(
          eq(reservations.tenantId, tenantId),
          eq(reservations.source, 'hostaway'),
          sql`${reservations.departureDate} >= ${from} and ${reservations.arrivalDate} <= ${to}`,
          seen.length > 0 ? sql`not (${inArray(reservations.id, seen)})` : undefined,
        ),
      );
      await matchCalendarStays(tx, tenantId);
      await recordStayChanges(tx, tenantId, before);
      await tx.update(providerCredentials).set({ lastSyncedAt: deps.now(), lastSyncError: null }).where(eq(providerCredentials.tenantId, tenantId));
      return { stored };
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await withTenant(deps.db, tenantId, (tx) =>
      tx.update(providerCredentials).set({ lastSyncError: reason.slice(0, 500) }).where(eq(providerCredentials.tenantId, tenantId)),
    );
    throw err;
  }
}

/**
 * Reads reservation `id` again from Hostaway and stores it (a webhook said it changed). A
 * reservation Hostaway does not know, or of a listing that is not imported, is ignored.
 * @returns whether it was stored.
 */
export async function refreshReservation(deps: HostawayDeps, tenantId: string, id: number): Promise<boolean> {
  const session = await openSession(deps, tenantId);
  const found = await deps.client.getReservation(session, id);
  if (!found) return false;
  return withTenant(deps.db, tenantId, async (tx) => {
    const byListing = await unitsByListing(tx, tenantId);
    const unitId = byListing.get(found.listingMapId);
    // The reservation's property before, when it moves from one to another.
    const [stored] = await tx
      .select({ unitId: reservations.unitId })
      .from(reservations)
      .where(and(eq(reservations.tenantId, tenantId), eq(reservations.source, 'hostaway'), eq(reservations.id, String(found.id))));
    const unitIds = [...new Set([unitId, stored?.unitId].filter((id): id is string => id !== undefined))];
    const before = await staysBefore(tx, tenantId, unitIds);
    if (!(await upsert(tx, tenantId, byListing, found))) return false;
    await matchCalendarStays(tx, tenantId, unitIds);
    await recordStayChanges(tx, tenantId, before);
    return true;
  });
}

/**
 * The stays of unit `unitId`, from every source, under way or arriving within UPCOMING_DAYS of
 * its today: the property's own days, like the stored dates (docs/decisions/036-local-days.md),
 * soonest first, each with the other calendar links that list it too.
 * @throws AppError NOT_FOUND for a unit not of the caller's company.
 */
export async function upcomingStays(db: Db, who: TenantIdentity, unitId: string, now: Date): Promise<UpcomingStay[]> {
  return withTenant(db, who.tenantId, async (tx) => {
    const zone = await propertyZone(tx, who.tenantId, unitId);
    if (zone === null) throw notFound('Unit');
    const today = localDay(now, zone);
    const until = addLocalDays(today, UPCOMING_DAYS);
    const rows = await tx
      .select()
      .from(reservations)
      .where(
        and(
          eq(reservations.tenantId, who.tenantId),
          eq(reservations.unitId, unitId),
          isStay(),
          gt(reservations.departureDate, today),
          lte(reservations.arrivalDate, until),
        ),
      )
      .orderBy(asc(reservations.arrivalDate));
    const others = await alsoListed(tx, who.tenantId, unitId, rows);
    return rows.map((r) => ({
      id: r.id,
      source: r.source,
      arrival_date: r.arrivalDate,
      departure_date: r.departureDate,
      nights: r.nights,
      guests: r.guests,
      adults: r.adults,
      children: r.children,
      status: r.status,
      channel: r.channel,
      also_listed_by: others.filter((o) => o.source === r.source && o.id === r.id).map((o) => ({ channel: o.channel })),
    }));
  });
}
