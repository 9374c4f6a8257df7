/**
 * Calendar links of properties (docs/product.md "Stays", "Calendar links"): adding and removing a
 * property's links, its typical guests, reading the links into stays, and their state.
 *
 * A property has up to MAX_CALENDAR_LINKS links (one per channel it is listed on, or its PMS's).
 * A read fetches a link outside any transaction (a slow calendar must not hold the database;
 * CONTRIBUTING "Tools on these machines"), then, in one tenant transaction, stores the stays the
 * link lists from {@link CALENDAR_DAYS_BACK} days back to {@link CALENDAR_DAYS_AHEAD} days ahead
 * of the property's today (the window Hostaway's sync keeps) and records the time on the link. A
 * stay the link no longer lists is kept: as history once it has begun (Airbnb's and Hostaway's
 * exports list future bookings only, and the forecast learns from past stays), as 'cancelled'
 * while it is still ahead. A failed read records its reason on the link and keeps the stays
 * already stored. Stays are rows of `reservations` with source 'calendar', the link's id, status
 * 'confirmed' and the guests the event's description gives, else none (the forecast uses the
 * property's typical guests); their id is the link's id and the event's UID, since two
 * properties, or two links, can export the same UIDs (docs/decisions/030-calendar-links.md).
 * Several links, or a link and Hostaway, listing one booking give one stay (stays/one-booking.ts).
 * Each write records its stay events (stays/stay-events.ts).
 */
import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, inArray, lte, ne, notInArray, sql } from 'drizzle-orm';
import { MAX_CALENDAR_LINKS, type SaveTypicalGuestsBody, type UnitCalendar } from '../../../common/contracts/calendars';
import type { Db, Tx } from '../../db/client';
import { calendarLinks, reservations } from '../../db/schema/integrations';
import { units } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { CalendarFeedError, fetchCalendar, type CalendarFeedOptions } from '../../integrations/calendar-feed';
import { AppError, notFound } from '../../lib/errors';
import type { Limit, LimitSetting } from '../../lib/limits';
import type { TenantIdentity } from '../auth/identity';
import { stockLocks } from '../stock/locks';
import { CANCELLED_STAY, CONFIRMED_STAY, isListedBooking } from '../stays/stay-rules';
import { addLocalDays, localDay, propertyZone } from '../stays/local-days';
import { matchCalendarStays } from '../stays/one-booking';
import { recordStayChanges, staysBefore } from '../stays/stay-events';
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

/** The reservation id of a calendar event of link `linkId`: long UIDs are hashed to keep the key short. */
function stayId(linkId: string, uid: string): string {
  return uid.length <= 200 ? `${linkId}/${uid}` : `${linkId}/sha256:${createHash('sha256').update(uid).digest('hex')}`;
}

/** A link as a read needs it. */
interface Link {
  id: string;
  unitId: string;
  url: string;
}

/** The property's links, oldest first. */
function linksOf(tx: Tx, tenantId: string, unitId: string) {
  return tx
    .select()
    .from(calendarLinks)
    .where(and(eq(calendarLinks.tenantId, tenantId), eq(calendarLinks.unitId, unitId)))
    .orderBy(asc(calendarLinks.createdAt), asc(calendarLinks.id));
}

/** The links' state; `today` is the property's. */
async function stateIn(tx: Tx, tenantId: string, unitId: string, now: Date): Promise<UnitCalendar> {
  const zone = await propertyZone(tx, tenantId, unitId);
  if (zone === null) throw notFound('Unit');
  const [unit] = await tx
    .select({ typicalGuests: units.typicalGuests })
    .from(units)
    .where(and(eq(units.tenantId, tenantId), eq(units.id, unitId)));
  const links = await linksOf(tx, tenantId, unitId);
  const upcoming =
    links.length === 0
      ? []
      : await tx
          .select({ linkId: reservations.calendarLinkId, n: count() })
          .from(reservations)
          .where(
            and(
              eq(reservations.tenantId, tenantId),
              eq(reservations.source, 'calendar'),
              eq(reservations.unitId, unitId),
              inArray(
                reservations.calendarLinkId,
                links.map((l) => l.id),
              ),
              gt(reservations.departureDate, localDay(now, zone)),
              isListedBooking(),
            ),
          )
          .groupBy(reservations.calendarLinkId);
  const upcomingOf = new Map(upcoming.map((r) => [r.linkId, r.n]));
  return {
    unit_id: unitId,
    typical_guests: unit?.typicalGuests ?? null,
    links: links.map((l) => ({
      id: l.id,
      url: l.url,
      synced_at: l.syncedAt?.toISOString() ?? null,
      error: l.error,
      upcoming_stays: upcomingOf.get(l.id) ?? 0,
    })),
  };
}

/**
 * The calendar links of unit `unitId` and their last reads.
 * @throws AppError NOT_FOUND for a unit not of the caller's company.
 */
export async function calendarState(deps: CalendarDeps, who: TenantIdentity, unitId: string): Promise<UnitCalendar> {
  return withTenant(deps.db, who.tenantId, (tx) => stateIn(tx, who.tenantId, unitId, deps.now()));
}

/**
 * Saves the typical guests of unit `unitId` (null: the default, 2).
 * @throws AppError NOT_FOUND for a unit not of the caller's company.
 */
export async function saveTypicalGuests(deps: CalendarDeps, who: TenantIdentity, unitId: string, body: SaveTypicalGuestsBody): Promise<void> {
  const saved = await withTenant(deps.db, who.tenantId, (tx) =>
    tx
      .update(units)
      .set({ typicalGuests: body.typical_guests })
      .where(and(eq(units.tenantId, who.tenantId), eq(units.id, unitId)))
      .returning({ id: units.id }),
  );
  if (saved.length === 0) throw notFound('Unit');
}

/**
 * Adds link `url` to unit `unitId` (not read yet: see {@link refreshNow}).
 * @returns the new link's id.
 * @throws AppError NOT_FOUND for a unit not of the caller's company; CONFLICT when the property
 *   already has this link, or MAX_CALENDAR_LINKS links.
 */
export async function addCalendarLink(deps: CalendarDeps, who: TenantIdentity, unitId: string, url: string): Promise<string> {
  return withTenant(deps.db, who.tenantId, async (tx) => {
    // The unit's lock makes the check and the insert one step against another person's add.
    if (!(await stockLocks(tx, who.tenantId).units([unitId], 'update')).has(unitId)) throw notFound('Unit');
    const links = await linksOf(tx, who.tenantId, unitId);
    if (links.some((l) => l.url === url)) throw new AppError('CONFLICT', 'This unit already has this calendar link');
    if (links.length >= MAX_CALENDAR_LINKS) throw new AppError('CONFLICT', `A unit can have at most ${MAX_CALENDAR_LINKS} calendar links`);
    const [link] = await tx.insert(calendarLinks).values({ tenantId: who.tenantId, unitId, url }).returning({ id: calendarLinks.id });
    return link!.id;
  });
}

/**
 * Removes link `linkId` of unit `unitId` with its stays that have not ended, cancelled ones
 * included (those that have stay, as history the forecast learns from); a stay another source
 * also listed counts again from that source.
 * @throws AppError NOT_FOUND for a unit or link not of the caller's company.
 */
export async function removeCalendarLink(deps: CalendarDeps, who: TenantIdentity, unitId: string, linkId: string): Promise<void> {
  await withTenant(deps.db, who.tenantId, async (tx) => {
    if (!(await stockLocks(tx, who.tenantId).units([unitId], 'update')).has(unitId)) throw notFound('Unit');
    const removed = await tx
      .delete(calendarLinks)
      .where(and(eq(calendarLinks.tenantId, who.tenantId), eq(calendarLinks.unitId, unitId), eq(calendarLinks.id, linkId)))
      .returning({ id: calendarLinks.id });
    if (removed.length === 0) throw notFound('Calendar link');
    const before = await staysBefore(tx, who.tenantId, [unitId]);
    const zone = (await propertyZone(tx, who.tenantId, unitId))!;
    await tx
      .delete(reservations)
      .where(
        and(
          eq(reservations.tenantId, who.tenantId),
          eq(reservations.source, 'calendar'),
          eq(reservations.unitId, unitId),
          eq(reservations.calendarLinkId, linkId),
          gt(reservations.departureDate, localDay(deps.now(), zone)),
        ),
      );
    await matchCalendarStays(tx, who.tenantId, [unitId]);
    await recordStayChanges(tx, who.tenantId, before);
  });
}

/**
 * Stores the stays `parsed` of `link` read for `window` (the property's days around its
 * `today`), unless the link was removed meanwhile: each is added, or its row updated (dates,
 * guests, and 'confirmed' again if it had been cancelled); a stay of the window the link no
 * longer lists that arrives after `today` is marked 'cancelled', and one that has begun is left as
 * it is; the property's stays that several sources give are matched (stays/one-booking.ts).
 */
async function storeStays(
  deps: CalendarDeps,
  tenantId: string,
  link: Link,
  window: { from: string; to: string; today: string },
  parsed: { stays: CalendarStay[]; channel: string | null },
): Promise<void> {
  const { unitId } = link;
  await withTenant(deps.db, tenantId, async (tx) => {
    // Locks the unit (the lock order's step for units): two reads of one property store one after the other.
    if (!(await stockLocks(tx, tenantId).units([unitId], 'update')).has(unitId)) return; // deleted meanwhile
    const [still] = await tx
      .select({ id: calendarLinks.id })
      .from(calendarLinks)
      .where(and(eq(calendarLinks.tenantId, tenantId), eq(calendarLinks.id, link.id)));
    if (!still) return; // removed while it was read
    const before = await staysBefore(tx, tenantId, [unitId]);
    const listed = parsed.stays.map((s) => stayId(link.id, s.uid));
    await tx
      .update(reservations)
      .set({ status: CANCELLED_STAY, syncedAt: deps.now() })
      .where(
        and(
          eq(reservations.tenantId, tenantId),
          eq(reservations.source, 'calendar'),
          eq(reservations.unitId, unitId),
          eq(reservations.calendarLinkId, link.id),
          gt(reservations.arrivalDate, window.today),
          lte(reservations.arrivalDate, window.to),
          ne(reservations.status, CANCELLED_STAY),
          listed.length > 0 ? notInArray(reservations.id, listed) : undefined,
        ),
      );
    const rows = parsed.stays.map((s) => ({
      tenantId,
      source: 'calendar' as const,
      id: stayId(link.id, s.uid),
      unitId,
      calendarLinkId: link.id,
      arrivalDate: s.arrival_date,
      departureDate: s.departure_date,
      nights: Math.round((Date.parse(s.departure_date) - Date.parse(s.arrival_date)) / 86_400_000),
      guests: s.guests ?? null,
      guestKey: s.guest_key ?? null,
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
            guestKey: sql`excluded.guest_key`,
            status: CONFIRMED_STAY,
            syncedAt: deps.now(),
          },
        });
    }
    await matchCalendarStays(tx, tenantId, [unitId]);
    await recordStayChanges(tx, tenantId, before);
    await tx
      .update(calendarLinks)
      .set({ syncedAt: deps.now(), error: null })
      .where(and(eq(calendarLinks.tenantId, tenantId), eq(calendarLinks.id, link.id)));
  });
}

/**
 * Reads `link` (of a property in time zone `zone`) and stores its stays.
 * @returns how many stays it lists in the window.
 * @throws CalendarFeedError or NotACalendarError when it could not be read (the reason is recorded on the link first).
 */
async function readLink(deps: CalendarDeps, tenantId: string, link: Link, zone: string): Promise<number> {
  const today = localDay(deps.now(), zone);
  const window = { from: addLocalDays(today, -CALENDAR_DAYS_BACK), to: addLocalDays(today, CALENDAR_DAYS_AHEAD) };
  try {
    const ics = await fetchCalendar(link.url, deps.feed);
    const parsed = await parseCalendar(ics, { timeZone: zone, ...window });
    await storeStays(deps, tenantId, link, { ...window, today }, parsed);
    return parsed.stays.length;
  } catch (err) {
    if (!isFeedError(err)) throw err;
    await withTenant(deps.db, tenantId, (tx) =>
      tx
        .update(calendarLinks)
        .set({ error: err.message.slice(0, 500) })
        .where(and(eq(calendarLinks.tenantId, tenantId), eq(calendarLinks.id, link.id))),
    );
    throw err;
  }
}

/** Whether `err` says a link could not be read (recorded on the link, not a fault of the server). */
const isFeedError = (err: unknown): err is CalendarFeedError | NotACalendarError => err instanceof CalendarFeedError || err instanceof NotACalendarError;

/**
 * Reads the links of unit `unitId` (only link `onlyLinkId` when given) one after the other and
 * stores their stays (see the module's comment). A unit without links, or gone, is left alone.
 * @returns the stays the links list, or null when there was no link to read.
 * @throws the first CalendarFeedError or NotACalendarError once every link has been tried (each
 *   link's reason is recorded on it).
 */
export async function refreshCalendars(deps: CalendarDeps, tenantId: string, unitId: string, onlyLinkId?: string): Promise<{ stays: number } | null> {
  const found = await withTenant(deps.db, tenantId, async (tx) => {
    const zone = await propertyZone(tx, tenantId, unitId);
    return zone === null ? null : { zone, links: (await linksOf(tx, tenantId, unitId)).filter((l) => onlyLinkId === undefined || l.id === onlyLinkId) };
  });
  if (!found || found.links.length === 0) return null;
  let stays = 0;
  let failure: unknown = null;
  for (const link of found.links) {
    try {
      stays += await readLink(deps, tenantId, link, found.zone);
    } catch (err) {
      if (!isFeedError(err)) throw err;
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return { stays };
}

/**
 * Reads the property's calendar links now, as a person asks, and answers their state; a failed
 * read is in its link's `error`, not thrown. `why` is the asking: 'request' ('Refresh now': every
 * link), or `{ newLink }` (a link just added: only it is read, and the next refresh on request
 * waits a minute).
 * @throws AppError NOT_FOUND for a unit not of the caller's company; CONFLICT when it has no
 *   link; RATE_LIMITED for a 'request' less than a minute after the last read on request.
 */
export async function refreshNow(deps: CalendarDeps, who: TenantIdentity, unitId: string, why: 'request' | { newLink: string }): Promise<UnitCalendar> {
  const state = await calendarState(deps, who, unitId);
  if (state.links.length === 0) throw new AppError('CONFLICT', 'This unit has no calendar link');
  const key = `${who.tenantId}:${unitId}`;
  if (why !== 'request') await deps.manualRefreshes.restart(key);
  else if (!(await deps.manualRefreshes.take(key)).allowed) {
    throw new AppError('RATE_LIMITED', 'This calendar was refreshed less than a minute ago. Please wait a minute and try again.');
  }
  await refreshCalendars(deps, who.tenantId, unitId, why === 'request' ? undefined : why.newLink).catch((err: unknown) => {
    if (!isFeedError(err)) throw err;
  });
  return calendarState(deps, who, unitId);
}
