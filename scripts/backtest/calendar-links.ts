/**
 * The backtest's and its tests' one way into the calendar service
 * (server/modules/calendars/service.ts): giving a property a calendar link and reading the
 * links as the hourly job does. Nothing else of scripts/ calls the service, so a change of its
 * API is made here only.
 */
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db/client';
import { openLimits } from '../../server/lib/limits';
import type { TenantIdentity } from '../../server/modules/auth/identity';
import { addCalendarLink, MANUAL_REFRESH_LIMIT, refreshCalendars, type CalendarDeps } from '../../server/modules/calendars/service';

/** What the calendar service needs; loopback links are allowed (the backtest's feeds are served there). */
export type LinkDeps = CalendarDeps;

/**
 * The calendar service's dependencies on `db`, with the clock `now` (used by {@link attachLink}):
 * the server's default time and size limits of a read, loopback allowed.
 */
export function linkDeps(db: Db, now: () => Date = () => new Date()): LinkDeps {
  const { timeoutMs, maxBytes, allowLoopback } = loadConfig({ CALENDAR_ALLOW_LOOPBACK: 'true' }).calendar;
  return {
    db,
    now,
    feed: { timeoutMs, maxBytes, allowLoopback },
    manualRefreshes: openLimits(db).limit(MANUAL_REFRESH_LIMIT),
  };
}

/**
 * Adds the calendar link `url` to unit `unitId` without reading it (the next {@link readLinks} does).
 * @throws AppError NOT_FOUND for a unit not of `who`'s company; CONFLICT when it already has this link or 5.
 */
export async function attachLink(deps: LinkDeps, who: TenantIdentity, unitId: string, url: string): Promise<void> {
  await addCalendarLink(deps, who, unitId, url);
}

/**
 * Reads the links of each of `unitIds` (company `tenantId`) as the refresh job would at instant
 * `now`: the stays of the window around each property's today (CALENDAR_DAYS_BACK to
 * CALENDAR_DAYS_AHEAD days) are stored, and those the link no longer lists kept as history or
 * cancelled.
 * @returns the stays the links listed in their windows, summed.
 * @throws Error for a unit without a link; CalendarFeedError or NotACalendarError when a link
 *   could not be read.
 */
export async function readLinks(deps: LinkDeps, tenantId: string, unitIds: readonly string[], now: Date): Promise<number> {
  const at = { ...deps, now: () => now };
  let listed = 0;
  for (const unitId of unitIds) {
    const read = await refreshCalendars(at, tenantId, unitId);
    if (!read) throw new Error(`Property ${unitId} has no calendar link to read.`);
    listed += read.stays;
  }
  return listed;
}
