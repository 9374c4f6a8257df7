/**
 * One booking, one stay (docs/decisions/044-calendar-text-and-history.md): a property imported
 * from Hostaway may also have the channel's calendar link, which lists the same bookings. A
 * calendar stay with the same property, arrival and departure as a stay from another source is
 * that booking: it is kept with the status 'duplicate', which no list, count or forecast includes,
 * and the other source's row (with its guests) counts. It is 'confirmed' again when the other
 * stay goes or moves.
 *
 * Matched when either side is written: a calendar link read (calendars/service.ts), a Hostaway
 * sync or a reservation read again (listings-import/reservations.ts). Each statement joins the
 * company's own rows by its tenant, so that Citus sends it whole to the company's shard.
 */
import { sql } from 'drizzle-orm';
import { pgArray, type Tx } from '../../db/client';
import { CONFIRMED_STAY, DUPLICATE_STAY, STAY_STATUSES } from './stay-rules';

const stayStatuses = sql.join(
  STAY_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/**
 * Marks the calendar stays of company `tenantId` (of `unitIds` only, when given) that are another
 * source's booking as 'duplicate', and those marked so that no longer are as 'confirmed', in the
 * caller's tenant transaction. Cancelled calendar stays are left as they are.
 */
export async function matchCalendarStays(tx: Tx, tenantId: string, unitIds?: readonly string[]): Promise<void> {
  const of = (alias: string) => (unitIds ? sql`and ${sql.raw(alias)}.unit_id = any(${pgArray(unitIds)}::uuid[])` : sql``);
  const others = sql`select o.unit_id, o.arrival_date, o.departure_date from reservations o
    where o.tenant_id = ${tenantId} and o.source <> 'calendar' and o.status in (${stayStatuses}) ${of('o')}`;
  await tx.execute(sql`
    update reservations c set status = ${CONFIRMED_STAY}
    where c.tenant_id = ${tenantId} and c.source = 'calendar' and c.status = ${DUPLICATE_STAY} ${of('c')}
      and (c.unit_id, c.arrival_date, c.departure_date) not in (${others})`);
  await tx.execute(sql`
    update reservations c set status = ${DUPLICATE_STAY}
    where c.tenant_id = ${tenantId} and c.source = 'calendar' and c.status = ${CONFIRMED_STAY} ${of('c')}
      and (c.unit_id, c.arrival_date, c.departure_date) in (${others})`);
}
