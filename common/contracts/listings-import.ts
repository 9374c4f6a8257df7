/**
 * The Import Listings dialog's API (docs/product.md "Import from Hostaway"): connecting a Hostaway
 * account, its listings, saving a selection as units, the reservation sync's state and the
 * webhook credentials. The client secret and tokens never appear in an answer.
 */
import { z } from 'zod';
import { MAX_TEXT_LENGTH, requiredText } from './fields';

/** Most listings one save may carry. */
export const MAX_IMPORT_LISTINGS = 1000;

/** Hostaway's account id (its Client ID): digits. */
const hostawayId = (label: string) => z.string().trim().regex(/^\d{1,20}$/, `${label} must be the Hostaway number, 1 to 20 digits`);

export const hostawayConnectBody = z.strictObject({
  client_id: hostawayId('Client ID'),
  client_secret: z
    .string()
    .trim()
    .min(1, 'Please enter the Client Secret')
    .max(MAX_TEXT_LENGTH, `Client Secret must be at most ${MAX_TEXT_LENGTH} characters`)
    .refine((s) => !/[\p{Cc}\p{Cs}]/u.test(s), 'Client Secret must not contain control characters'),
});
export type HostawayConnectBody = z.infer<typeof hostawayConnectBody>;

/** Basic-auth credentials Hostaway's unified webhook sends; the password only in the answer that generated it. */
export const webhookCredentials = z.object({ url: z.string(), login: z.string(), password: z.string().optional() });
export type WebhookCredentials = z.infer<typeof webhookCredentials>;

export const hostawayConnection = z.object({
  connected: z.boolean(),
  /** The Hostaway account id (Client ID) when connected. */
  account_id: z.string().nullable(),
  /** When the reservations were last read in full, ISO instant. */
  last_synced_at: z.string().nullable(),
  /** Why the last sync failed, or null. */
  last_sync_error: z.string().nullable(),
  webhook: webhookCredentials.nullable(),
});
export type HostawayConnection = z.infer<typeof hostawayConnection>;

export const hostawayListing = z.object({
  external_id: z.string(),
  name: z.string(),
  address: z.string(),
  imported: z.boolean(),
});
export type HostawayListing = z.infer<typeof hostawayListing>;

export const importListingsBody = z.strictObject({
  garage_id: z.uuid('Please choose the garage the properties are assigned to'),
  listings: z
    .array(
      z.strictObject({
        external_id: hostawayId('Listing id'),
        name: requiredText('Name', 'Every listing needs a name'),
        address: requiredText('Address', 'Every listing needs an address'),
      }),
    )
    .min(1, 'Please select at least one listing')
    .max(MAX_IMPORT_LISTINGS, `At most ${MAX_IMPORT_LISTINGS} listings can be imported at once`),
});
export type ImportListingsBody = z.infer<typeof importListingsBody>;

export const importListingsResult = z.object({ imported: z.number(), skipped: z.number() });
export type ImportListingsResult = z.infer<typeof importListingsResult>;

/** A stay of a unit, as "Upcoming stays" on the unit's page shows it (dates are the listing's local dates). */
export const upcomingStay = z.object({
  /** The source's id of the reservation (Hostaway's id, a calendar event's UID). */
  id: z.string(),
  source: z.enum(['hostaway', 'calendar', 'demo']),
  arrival_date: z.string(),
  departure_date: z.string(),
  nights: z.number().nullable(),
  guests: z.number().nullable(),
  adults: z.number().nullable(),
  children: z.number().nullable(),
  status: z.string(),
  channel: z.string().nullable(),
  /** Other calendar links that list the same booking (one booking, one stay), by their channel (null: not known). */
  also_listed_by: z.array(z.object({ channel: z.string().nullable() })),
});
export type UpcomingStay = z.infer<typeof upcomingStay>;
