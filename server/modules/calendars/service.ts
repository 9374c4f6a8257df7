/**
 * Calendar links of properties (docs/product.md "Stays", "Calendar links"): saving a link and the
 * typical guests, reading the link into stays, and the link's state.
 *
 * A refresh reads the link outside any transaction (a slow calendar must not hold the database;
 * CONTRIBUTING "Tools on these machines"), then, in one tenant transaction, stores the stays the
 * link lists from {@link CALENDAR_DAYS_BACK} days back to {@link CALENDAR_DAYS_AHEAD} days ahead
 * of the property's today (the window Hostaway's sync keeps) and records the time. A stay the link
 * no longer lists is kept: as history once it has begun (Airbnb's and Hostaway's exports list
 * future bookings only, and the forecast learns from past stays), as 'cancelled' while it is still
 * ahead. A failed read records its reason and keeps the stays already stored. Stays are rows of
 * `reservations` with source 'calendar', status 'confirmed' and the guests the event's description
 * gives, else none (the forecast uses the property's typical guests); their id is the unit's id and the event's UID, since two
 * properties can export the same UIDs (docs/decisions/030-calendar-links.md).
 */
import { createHash } from 'node:crypto';
import { and, count, eq, gt, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { SaveCalendarBody, UnitCalendar } from '../../../common/contracts/calendars';
import type { Db, Tx } from '../../db/client';
import { tenants } from '../../db/schema/auth';
import { reservations } from '../../db/schema/integrations';
import { units } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { CalendarFeedError, fetchCalendar, type CalendarFeedOptions } from '../../integrations/calendar-feed';
import { AppError, notFound } from '../../lib/errors';
import type { Limit, LimitSetting } from '../../lib/limits';
import type { TenantIdentity } from '../auth/session';
import { stockLocks } from '../stock/locks';
import { CANCELLED_STAY, CONFIRMED_STAY, isStay } from '../stays/stay-rules';
import { addLocalDays, localDay } from '../stays/local-days';
import { matchCalendarStays } from '../stays/one-booking';
import { NotACalendarError, parseCalendar, type CalendarStay } from './ical';

/** Days back and ahead of the property's today that a refresh replaces. */
export const CALENDAR_DAYS_BACK = 90;
export const CALENDAR_DAYS_AHEAD = 60;

/** Refreshes a person may ask for per property: one a minute (docs/product.md "Calendar links"). */
export const MANUAL_REFRESH_LIMIT: LimitSetting = { name: 'calendar-refreshes', points: 1, durationSeconds: 60 };

/** Rows written per INSERT statement (keeps well under PostgreSQL's 65,535 parameters). */
const INSERT_CHUNK = 500;

export interface CalendarDeps {
  db: Db;
  now: () => Date;
  feed: CalendarFeedOptions;
  /** Refreshes asked for per property (`{tenant}:{unit}`), MANUAL_REFRESH_LIMIT, shared by every server. */
  manualRefreshes: Limit;
}

/** The reservation id of a calendar event of `unitId`: long UIDs are hashed to keep the key short. */
function stayId(unitId: string, uid: string): string {
  return uid.length <= 200 ? `${unitId}/${uid}` : `${unitId}/sha256:${createHash('sha256').update(uid).digest('hex')}`;
}

/** The unit's calendar columns and time zone (the company's when it has none), or undefined. */
async function unitRow(tx: Tx, tenantId: string, unitId: string) {
  const [row] = await tx
    .select({
      calendarUrl: units.calendarUrl,
      typicalGuests: units.typicalGuests,
      syncedAt: units.calendarSyncedAt,
      error: units.calendarError,
      timeZone: units.timeZone,
      companyZone: tenants.timeZone,
    })
    .from(units)
    .innerJoin(tenants, eq(tenants.id, units.tenantId))
    .where(and(eq(units.tenantId, tenantId), eq(units.id, unitId)));
  return row && { ...row, zone: row.timeZone ?? row.companyZone };
}

/** The link's state; `today` is the property's. */
async function stateIn(tx: Tx, tenantId: string, unitId: string, now: Date): Promise<UnitCalendar> {
  const row = await unitRow(tx, tenantId, unitId);
  if (!row) throw notFound('Unit');
  const [upcoming] = await tx
    .select({ n: count() })
    .from(reservations)
    .where(
      and(
        eq(reservations.tenantId, tenantId),
        eq(reservations.source, 'calendar'),
        eq(reservations.unitId, unitId),
        gt(reservations.departureDate, localDay(now, row.zone)),
        isStay(),
      ),
    );
  return {
    unit_id: unitId,
    calendar_url: row.calendarUrl,
    typical_guests: row.typicalGuests,
    synced_at: row.syncedAt?.toISOString() ?? null,
    error: row.error,
    upcoming_stays: upcoming?.n ?? 0,
  };
}

/**
 * The calendar link of unit `unitId` and its last refresh.
 * @throws AppError NOT_FOUND for a unit not of the caller's company.
 */
export async function calendarState(deps: CalendarDeps, who: TenantIdentity, unitId: string): Promise<UnitCalendar> {
  return withTenant(deps.db, who.tenantId, (tx) => stateIn(tx, who.tenantId, unitId, deps.now()));
}

/**
 * Saves the link and typical guests of unit `unitId`. A new or changed link forgets the previous
 * link's refresh state; changing or removing the link removes the previous link's stays that have
 * not ended, cancelled ones included (those that have stay, as history the forecast learns from;
 * a new link's read stores what it lists).
 * @returns 'none' when the unit now has no link, 'new' for a new or changed link, 'same' for the link it had.
 * @throws AppError NOT_FOUND for a unit not of the caller's company.
 */
export async function saveCalendar(deps: CalendarDeps, who: TenantIdentity, unitId: string, body: SaveCalendarBody): Promise<'none' | 'new' | 'same'> {
  return withTenant(deps.db, who.tenantId, async (tx) => {
    const row = await unitRow(tx, who.tenantId, unitId);
    if (!row) throw notFound('Unit');
    const changed = row.calendarUrl !== body.calendar_url;
    await tx
      .update(units)
      .set({
        calendarUrl: body.calendar_url,
        typicalGuests: body.typical_guests,
        ...(changed ? { calendarSyncedAt: null, calendarError: null } : {}),
      })
      .where(and(eq(units.tenantId, who.tenantId), eq(units.id, unitId)));
    if (changed) {
      await tx
        .delete(reservations)
        .where(
          and(
            eq(reservations.tenantId, who.tenantId),
            eq(reservations.source, 'calendar'),
            eq(reservations.unitId, unitId),
            gt(reservations.departureDate, localDay(deps.now(), row.zone)),
          ),
        );
    }
    return body.calendar_url === null ? 'none' : changed ? 'new' : 'same';
  });
}

/**
 * Stores the stays `parsed` of the unit's link read for `window` (the property's days around its
 * `today`), unless the link changed meanwhile: each is added, or its row updated (dates, and
 * 'confirmed' again if it had been cancelled); a stay of the window the link no longer lists that
 * arrives after `today` is marked 'cancelled', and one that has begun is left as it is; the link's
 * stays that another source gives too are matched (stays/one-booking.ts).
 */
async function storeStays(
  deps: CalendarDeps,
  tenantId: string,
  unitId: string,
  link: string,
  window: { from: string; to: string; today: string },
  parsed: { stays: CalendarStay[]; channel: string | null },
): Promise<void> {
  await withTenant(deps.db, tenantId, async (tx) => {
    // Locks the unit (the lock order's step for units): two refreshes of one property store one after the other.
    if (!(await stockLocks(tx, tenantId).units([unitId], 'update')).has(unitId)) return; // deleted meanwhile
    const [unit] = await tx
      .select({ id: units.id })
      .from(units)
      .where(and(eq(units.tenantId, tenantId), eq(units.id, unitId), eq(units.calendarUrl, link)));
    if (!unit) return; // its link changed or was removed while this one was read
    const listed = parsed.stays.map((s) => stayId(unitId, s.uid));
    await tx
      .update(reservations)
      .set({ status: CANCELLED_STAY, syncedAt: deps.now() })
      .where(
        and(
          eq(reservations.tenantId, tenantId),
          eq(reservations.source, 'calendar'),
          eq(reservations.unitId, unitId),
          gt(reservations.arrivalDate, window.today),
          lte(reservations.arrivalDate, window.to),
          ne(reservations.status, CANCELLED_STAY),
          listed.length > 0 ? notInArray(reservations.id, listed) : undefined,
        ),
      );
    const rows = parsed.stays.map((s) => ({
      tenantId,
      source: 'calendar' as const,
      id: stayId(unitId, s.uid),
      unitId,
      arrivalDate: s.arrival_date,
      departureDate: s.departure_date,
      nights: Math.round((Date.parse(s.departure_date) - Date.parse(s.arrival_date)) / 86_400_000),
      guests: s.guests ?? null,
      status: CONFIRMED_STAY,
      channel: parsed.channel,
      syncedAt: deps.now(),
    }));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      // A stay of the feed stored earlier with dates now outside the window is moved, not doubled.
      await tx
        .insert(reservations)
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflictDoUpdate({
          target: [reservations.tenantId, reservations.source, reservations.id],
          set: {
            arrivalDate: sql`excluded.arrival_date`,
            departureDate: sql`excluded.departure_date`,
            nights: sql`excluded.nights`,
            guests: sql`excluded.guests`,
            status: CONFIRMED_STAY,
            syncedAt: deps.now(),
          },
        });
    }
    await matchCalendarStays(tx, tenantId, [unitId]);
    await tx.update(units).set({ calendarSyncedAt: deps.now(), calendarError: null }).where(and(eq(units.tenantId, tenantId), eq(units.id, unitId)));
  });
}

/**
 * Reads the link of unit `unitId` and stores its stays (see the module's comment). A unit
 * without a link, or gone, is left alone.
 * @returns the stays found, or null when there was no link to read.
 * @throws CalendarFeedError or NotACalendarError when the link could not be read (the reason is
 *   recorded on the unit first).
 */
export async function refreshCalendar(deps: CalendarDeps, tenantId: string, unitId: string): Promise<{ stays: number } | null> {
  const row = await withTenant(deps.db, tenantId, (tx) => unitRow(tx, tenantId, unitId));
  if (!row?.calendarUrl) return null;
  const link = row.calendarUrl;
  const today = localDay(deps.now(), row.zone);
  const window = { from: addLocalDays(today, -CALENDAR_DAYS_BACK), to: addLocalDays(today, CALENDAR_DAYS_AHEAD) };
  try {
    const ics = await fetchCalendar(link, deps.feed);
    const parsed = await parseCalendar(ics, { timeZone: row.zone, ...window });
    await storeStays(deps, tenantId, unitId, link, { ...window, today }, parsed);
    return { stays: parsed.stays.length };
  } catch (err) {
    if (!(err instanceof CalendarFeedError || err instanceof NotACalendarError)) throw err;
    await withTenant(deps.db, tenantId, (tx) =>
      tx
        .update(units)
        .set({ calendarError: err.message.slice(0, 500) })
        .where(and(eq(units.tenantId, tenantId), eq(units.id, unitId), eq(units.calendarUrl, link))),
    );
    throw err;
  }
}

/**
 * Refreshes the unit's calendar now, as a person asks, and answers its state; a failed read is in
 * the state's `error`, not thrown. `why` is the asking: 'request' ('Refresh now'), 'newLink' (a
 * new or changed link saved: read at once, and the next refresh on request waits a minute), or
 * 'sameLink' (the link saved again: read only if a refresh on request would be, and counted as one).
 * @throws AppError NOT_FOUND for a unit not of the caller's company; CONFLICT when it has no
 *   link; RATE_LIMITED for a 'request' less than a minute after the last read on request.
 */
export async function refreshNow(deps: CalendarDeps, who: TenantIdentity, unitId: string, why: 'request' | 'newLink' | 'sameLink'): Promise<UnitCalendar> {
  const state = await calendarState(deps, who, unitId);
  if (state.calendar_url === null) throw new AppError('CONFLICT', 'This property has no calendar link');
  const key = `${who.tenantId}:${unitId}`;
  if (why === 'newLink') await deps.manualRefreshes.restart(key);
  else if (!(await deps.manualRefreshes.take(key)).allowed) {
    if (why === 'sameLink') return state;
    throw new AppError('RATE_LIMITED', 'This calendar was refreshed less than a minute ago. Please wait a minute and try again.');
  }
  await refreshCalendar(deps, who.tenantId, unitId).catch((err: unknown) => {
    if (!(err instanceof CalendarFeedError || err instanceof NotACalendarError)) throw err;
  });
  return calendarState(deps, who, unitId);
}
