/**
 * What counts as a stay (docs/product.md "Stays"): a reservation that holds a property's
 * calendar, whatever its source. Hostaway's statuses that hold the calendar are its own
 * (new, modified, ownerStay, awaitingPayment, awaitingGuestVerification; cancelled, inquiries,
 * declined, expired, pending and unknown do not); a calendar link's events and the demo's
 * simulated stays are stored as 'confirmed', and a link's stay still ahead that its feed no longer
 * lists as 'cancelled' (kept, not counted), and one that is the same booking as a stay from another
 * source as 'duplicate' (stays/one-booking.ts). Calendar blocks that are not bookings are never stored.
 */
import { inArray, type SQL } from 'drizzle-orm';
import { reservations } from '../../db/schema/integrations';

/** Statuses of a reservation that is a stay, from any source. */
export const STAY_STATUSES = ['new', 'modified', 'ownerStay', 'awaitingPayment', 'awaitingGuestVerification', 'confirmed'] as const;

/** The status a calendar event or a demo stay is stored with. */
export const CONFIRMED_STAY = 'confirmed';

/** The status of a calendar stay still ahead that its feed no longer lists (Hostaway's word for a cancelled booking). */
export const CANCELLED_STAY = 'cancelled';

/** The status of a calendar stay that is a booking another source already gives (stays/one-booking.ts). */
export const DUPLICATE_STAY = 'duplicate';

/** SQL: the reservation row is a stay. */
export const isStay = (): SQL => inArray(reservations.status, [...STAY_STATUSES]);

/** SQL: the reservation row is a booking its source lists, counted (a stay) or not (a duplicate). */
export const isListedBooking = (): SQL => inArray(reservations.status, [...STAY_STATUSES, DUPLICATE_STAY]);
