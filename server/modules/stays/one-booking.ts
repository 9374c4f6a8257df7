/**
 * One booking, one stay (docs/decisions/044-calendar-text-and-history.md): a property can be fed
 * by Hostaway and by calendar links, and by several links (Airbnb's, Vrbo's, a PMS's), which may
 * list the same bookings. A calendar stay is the booking of another of the property's stays
 * (one from another source, or from an older link) when
 * - both have the same arrival and departure, or
 * - both give the same guest's first name ({@link guestKeyOf}) and their nights overlap: one
 *   source already has a changed booking that the other has not re-read yet.
 * It is then kept with the status 'duplicate', which no list, count or forecast includes, and the
 * other row counts: Hostaway's first (with its guests), then a link's that gives its guests, then
 * the oldest link's (a fixed choice, so reads in any order agree). It is 'confirmed' again
 * when the other stay goes or moves away.
 *
 * Matched when a side is written: a calendar link read or removed (calendars/service.ts), a
 * Hostaway sync or a reservation read again (listings-import/reservations.ts). Each statement
 * reads the company's own rows joined by its tenant, so that Citus sends it whole to the
 * company's shard.
 */
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { CONFIRMED_STAY, DUPLICATE_STAY, STAY_STATUSES } from './stay-rules';

/**
 * Words before or beside a guest's name that are not a name, folded: 'Reserved' and 'booking' in
 * the languages of the channels' sites (Abritel's 'Réservé', 'Reservado', 'Prenotato',
 * 'Reserviert', 'Gereserveerd'), the channels' names and Booking.com's 'CLOSED - Not available'.
 */
const NOT_NAMES = new Set([
  'reserved', 'reservation', 'booked', 'booking', 'guest', 'stay',
  'reserve', 'reservee', 'reservado', 'reservada', 'reserva', 'prenotato', 'prenotata', 'prenotazione',
  'reserviert', 'gebucht', 'buchung', 'gereserveerd', 'boeking',
  'airbnb', 'vrbo', 'closed', 'not', 'available',
]);

/**
 * The matching key of a guest's name as a source writes it ('José Álvarez', 'Reserved - Jose A.',
 * 'Smith, John' is read as 'smith'): its first word, lower case, accents and apostrophes dropped;
 * null when there is no such word of 2 letters or more, or it is a booking word ('Reserved').
 */
export function guestKeyOf(name: string | null | undefined): string | null {
  if (!name) return null;
  const folded = name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/['’]/g, '').toLowerCase();
  for (const word of folded.split(/[^\p{L}\d]+/u)) {
    if (word === '' || NOT_NAMES.has(word)) continue;
    return /^\p{L}{2,}$/u.test(word) ? word : null;
  }
  return null;
}

/** SQL: rows `o` and `c` (aliases of reservations of one property) are one booking (see the module's comment). */
const sameBooking = (o: string, c: string) => {
  const [a, b] = [sql.raw(o), sql.raw(c)];
  return sql`((${a}.arrival_date = ${b}.arrival_date and ${a}.departure_date = ${b}.departure_date)
    or (${a}.guest_key = ${b}.guest_key and ${a}.arrival_date < ${b}.departure_date and ${b}.arrival_date < ${a}.departure_date))`;
};

const listed = sql.join(
  [...STAY_STATUSES, DUPLICATE_STAY].map((status) => sql`${status}`),
  sql`, `,
);

/**
 * Marks the calendar stays of company `tenantId` (of `unitIds` only, when given) that are
 * another row's booking (see the module's comment) as 'duplicate', and those marked so that no
 * longer are as 'confirmed', in the caller's tenant transaction. Cancelled stays are left as they are.
 */
export async function matchCalendarStays(tx: Tx, tenantId: string, unitIds?: readonly string[]): Promise<void> {
  const of = (alias: string) => (unitIds ? sql`and ${sql.raw(alias)}.unit_id = any(${pgArray(unitIds)}::uuid[])` : sql``);
  // The calendar rows (c) that another listed row (o) of the property outranks and matches.
  // A removed link's rows (its history) rank before every link's: they were read first.
  const duplicates = sql`select c.id from reservations c join reservations o
      on o.tenant_id = c.tenant_id and o.unit_id = c.unit_id and (o.source, o.id) <> (c.source, c.id)
    left join calendar_links lc on lc.tenant_id = c.tenant_id and lc.id = c.calendar_link_id
    left join calendar_links lo on lo.tenant_id = o.tenant_id and lo.id = o.calendar_link_id
    where c.tenant_id = ${tenantId} and o.tenant_id = ${tenantId} and c.source = 'calendar' ${of('c')}
      and c.status in (${listed}) and o.status in (${listed})
      and (o.source <> 'calendar' or (o.guests is not null and c.guests is null)
        or ((o.guests is null) = (c.guests is null)
          and (coalesce(lo.created_at, '-infinity'), o.id) < (coalesce(lc.created_at, '-infinity'), c.id)))
      and ${sameBooking('o', 'c')}`;
  await tx.execute(sql`
    update reservations set status = ${CONFIRMED_STAY}
    where tenant_id = ${tenantId} and source = 'calendar' and status = ${DUPLICATE_STAY} ${of('reservations')}
      and id not in (${duplicates})`);
  await tx.execute(sql`
    update reservations set status = ${DUPLICATE_STAY}
    where tenant_id = ${tenantId} and source = 'calendar' and status = ${CONFIRMED_STAY} ${of('reservations')}
      and id in (${duplicates})`);
}

/** A calendar stay kept as the duplicate of a counted stay: where else that booking is listed. */
export interface AlsoListed {
  /** The counted stay's source and id. */
  source: string;
  id: string;
  /** The duplicate's link channel ('Airbnb', 'Vrbo', 'Booking.com'), or null. */
  channel: string | null;
}

/**
 * The duplicates of the counted stays `stays` (source and id) of property `unitId`, read in the
 * caller's tenant transaction: which other calendar links list each booking too.
 */
export async function alsoListed(tx: Tx, tenantId: string, unitId: string, stays: readonly { source: string; id: string }[]): Promise<AlsoListed[]> {
  if (stays.length === 0) return [];
  return queryRows<AlsoListed>(
    tx,
    sql`select r.source, r.id, d.channel from reservations r join reservations d
          on d.tenant_id = r.tenant_id and d.unit_id = r.unit_id and ${sameBooking('r', 'd')}
        where r.tenant_id = ${tenantId} and d.tenant_id = ${tenantId} and r.unit_id = ${unitId} and d.unit_id = ${unitId}
          and d.source = 'calendar' and d.status = ${DUPLICATE_STAY}
          and r.source || '/' || r.id = any(${pgArray(stays.map((s) => `${s.source}/${s.id}`))}::text[])
        order by d.id`,
  );
}
