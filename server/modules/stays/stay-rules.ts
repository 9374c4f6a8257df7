/**
 * What counts as a stay (docs/product.md "Stays"): a reservation that holds a property's
 * calendar, whatever its source. Hostaway's statuses that hold the calendar are its own
 * (new, modified, ownerStay, awaitingPayment, awaitingGuestVerification; cancelled, inquiries,
 * declined, expired, pending and unknown do not); a calendar link's events and the demo's
 * simulated stays are stored as 'confirmed', and a link's stay still ahead that its feed no longer
 * lists as 'cancelled' (kept, not counted). Calendar blocks that are not bookings are never stored.
 * A booking that comes both from Hostaway and from a calendar link counts once (`isStay`).
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import { reservations } from '../../db/schema/integrations';

/** Statuses of a reservation that is a stay, from any source. */
export const STAY_STATUSES = ['new', 'modified', 'ownerStay', 'awaitingPayment', 'awaitingGuestVerification', 'confirmed'] as const;

/** The status a calendar event or a demo stay is stored with. */
export const CONFIRMED_STAY = 'confirmed';

/** The status of a calendar stay still ahead that its feed no longer lists (Hostaway's word for a cancelled booking). */
export const CANCELLED_STAY = 'cancelled';

const stayStatuses = sql.join(STAY_STATUSES.map((status) => sql`${status}`), sql`, `);

/**
 * SQL, on the table `reservations` unaliased: the reservation row is a stay, counted once. A
 * calendar link's stay with the same property and dates as a stay from another source (Hostaway
 * imports what the channel's own link also lists) is the same booking: the other source's row
 * counts, since it carries the guests (docs/decisions/044-calendar-text-and-history.md).
 */
export const isStay = (): SQL => sql`(${inArray(reservations.status, [...STAY_STATUSES])} and not (
  reservations.source = 'calendar' and exists (
    select 1 from reservations same
    where same.tenant_id = reservations.tenant_id and same.unit_id = reservations.unit_id
      and same.arrival_date = reservations.arrival_date and same.departure_date = reservations.departure_date
      and same.source <> 'calendar' and same.status in (${stayStatuses}))))`;
