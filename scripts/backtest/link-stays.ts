/**
 * The backtest's calendar-fed run (docs/forecast.md "Backtest", `--stays calendar`): the demo
 * company's stays are taken out of the database and given back through a calendar link per
 * property, a feed that lists future bookings only (calendar-feed.ts), read once a day across the
 * history as the refresh job would. What the links leave behind is the history the forecast
 * learns from; {@link stayDifferences} says where it differs from the demo's.
 */
import { addHours, min } from 'date-fns';
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/db/client';
import { reservations } from '../../server/db/schema/integrations';
import { withTenant } from '../../server/db/tenant-tx';
import type { TenantIdentity } from '../../server/modules/auth/identity';
import { addLocalDays, localDay, localMidnight } from '../../server/modules/stays/local-days';
import { isStay } from '../../server/modules/stays/stay-rules';
import { serveFutureOnlyFeeds, type FeedBooking } from './calendar-feed';
import { attachLink, linkDeps, readLinks } from './calendar-links';
import type { BacktestHistory, BacktestStay } from './replay';

/** The owner of company `tenantId`, as the calendar service's caller. @throws Error when it has none. */
async function ownerOf(db: Db, tenantId: string): Promise<TenantIdentity> {
  const [owner] = await queryRows<{ user_id: string; email: string }>(
    db,
    sql`select m.user_id, u.email from memberships m join users u on u.id = m.user_id
        where m.tenant_id = ${tenantId} and m.role = 'owner' order by m.id limit 1`,
  );
  if (!owner) throw new Error(`Company ${tenantId} has no owner.`);
  return { userId: owner.user_id, email: owner.email, tenantId, role: 'owner' };
}

/**
 * Replaces the 'demo' stays of company `tenantId` by the same bookings read from calendar links:
 * the demo's rows are deleted, every property of `history` gets a link to its feed on loopback
 * (its bookings, as UIDs their demo ids), and the links are read once a day at noon in
 * `history.timeZone` (the properties' zone; `now` on its own day if earlier), with the feeds
 * listing the bookings departing after that day. Reading starts the day before the history's
 * first, so that the links have listed every stay whose checkout the ledger records, and ends on
 * `now`'s day, which stores the bookings ahead.
 * @returns the reads made (properties × days) and the days read.
 * @throws Error when a link could not be read (calendar-links.ts `readLinks`).
 */
export async function staysThroughLinks(
  db: Db,
  tenantId: string,
  history: Pick<BacktestHistory, 'days' | 'unitIds'> & { timeZone: string },
  now: Date,
): Promise<{ reads: number; days: number }> {
  const zone = history.timeZone;
  const bookings = new Map<string, FeedBooking[]>(history.unitIds.map((id) => [id, []]));
  await withTenant(db, tenantId, async (tx) => {
    const demo = and(eq(reservations.tenantId, tenantId), eq(reservations.source, 'demo'));
    const rows = await tx
      .select({ id: reservations.id, unitId: reservations.unitId, arrival: reservations.arrivalDate, departure: reservations.departureDate })
      .from(reservations)
      .where(and(demo, isStay()));
    for (const r of rows) bookings.get(r.unitId)?.push({ uid: r.id, arrival: r.arrival, departure: r.departure });
    await tx.delete(reservations).where(demo);
  });

  const first = addLocalDays(history.days[0]!, -1);
  const last = localDay(now, zone);
  const readAt = (day: string) => min([addHours(localMidnight(day, zone), 12), now]);
  const feeds = await serveFutureOnlyFeeds(bookings, first);
  try {
    const deps = linkDeps(db, () => readAt(first));
    const who = await ownerOf(db, tenantId);
    for (const unitId of history.unitIds) await attachLink(deps, who, unitId, feeds.linkOf(unitId));
    let days = 0;
    for (let day = first; day <= last; day = addLocalDays(day, 1)) {
      feeds.today = day;
      await readLinks(deps, tenantId, history.unitIds, readAt(day));
      days++;
    }
    return { reads: days * history.unitIds.length, days };
  } finally {
    await feeds.close();
  }
}

/** A stay's property and dates, the identity two sources of the same booking share. */
const stayKey = (s: BacktestStay) => `${s.unitId} ${s.arrival} → ${s.departure}`;

/**
 * The stays, by property and dates, that only one of `expected` and `found` has (a booking held
 * twice counts twice), in that order and sorted: lines '- {unit id} {arrival} → {departure}' for a
 * stay of `expected` missing from `found`, '+ …' for one `found` has besides; none when both hold
 * the same stays. Guests are not compared: a calendar link gives none.
 */
export function stayDifferences(expected: readonly BacktestStay[], found: readonly BacktestStay[]): string[] {
  const count = new Map<string, number>();
  for (const s of expected) count.set(stayKey(s), (count.get(stayKey(s)) ?? 0) + 1);
  for (const s of found) count.set(stayKey(s), (count.get(stayKey(s)) ?? 0) - 1);
  const lines = [...count.entries()].flatMap(([key, n]) => Array.from({ length: Math.abs(n) }, () => `${n > 0 ? '-' : '+'} ${key}`));
  return lines.sort((a, b) => (a[0] === b[0] ? a.localeCompare(b) : a[0] === '-' ? -1 : 1));
}
