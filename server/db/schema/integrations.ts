/**
 * The listings provider (Hostaway): a company's credentials and sync state, the reservations of
 * its imported properties, and the webhook events already applied (docs/product.md "Import from
 * Hostaway"). Secrets are stored encrypted (AES-256-GCM with a key derived from APP_SECRET,
 * server/lib/secret-box.ts); the webhook password only as its SHA-256 hash.
 */
import { date, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './auth';
import { units } from './stock';

export const providerCredentials = pgTable(
  'provider_credentials',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['hostaway'] }).notNull(),
    clientId: text('client_id').notNull(),
    clientSecretEnc: text('client_secret_enc').notNull(),
    accessTokenEnc: text('access_token_enc'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** SHA-256 (hex) of the Basic-auth password of the company's webhook URL; null until generated. */
    webhookPasswordHash: text('webhook_password_hash'),
    /** End of the last reservation sync that completed. */
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** Why the last sync failed; null once one succeeds. */
    lastSyncError: text('last_sync_error'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.provider] })],
);

/**
 * A reservation of a property, as last read from where it comes from (docs/product.md "Stays"):
 * Hostaway (`source` 'hostaway', `id` Hostaway's reservation id), a property's calendar link
 * ('calendar', `id` the event's UID) or the demo data's simulation ('demo'). Dates are the
 * property's local calendar dates; `status` is the source's (which ones are stays:
 * modules/stays/stay-rules.ts). One table whatever the source, so the forecast reads stays alike.
 */
export const reservations = pgTable(
  'reservations',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Where the reservation comes from. */
    source: text('source', { enum: ['hostaway', 'calendar', 'demo'] })
      .notNull()
      .default('hostaway'),
    /** The source's own id: Hostaway's reservation id, the calendar event's UID, the demo's number. */
    id: text('id').notNull(),
    unitId: uuid('unit_id').notNull(),
    arrivalDate: date('arrival_date').notNull(),
    departureDate: date('departure_date').notNull(),
    nights: integer('nights'),
    guests: integer('guests'),
    adults: integer('adults'),
    children: integer('children'),
    status: text('status').notNull(),
    channel: text('channel'),
    /** Hostaway's `updatedOn`: an older copy of the reservation never replaces a newer one. */
    updatedOn: text('updated_on'),
    /** The calendar link a 'calendar' stay was read from (kept after the link is removed, as its history's origin). */
    calendarLinkId: uuid('calendar_link_id'),
    /**
     * The guest's first name as the source gives it, folded (lower case, no accents), or null: with
     * overlapping dates it tells that two sources list one booking (stays/one-booking.ts).
     */
    guestKey: text('guest_key'),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.source, t.id] }),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [units.tenantId, units.id] }).onDelete('cascade'),
    index('reservations_unit_arrival_idx').on(t.tenantId, t.unitId, t.arrivalDate),
  ],
);

/**
 * A property's calendar links (docs/product.md "Calendar links"): iCal export URLs of its listings
 * on Airbnb, Vrbo, Booking.com or a PMS, each read into stays (modules/calendars/service.ts) with
 * the state of its last read. A property takes at most MAX_CALENDAR_LINKS, each URL once.
 */
export const calendarLinks = pgTable(
  'calendar_links',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    unitId: uuid('unit_id').notNull(),
    url: text('url').notNull(),
    /** End of the last read that succeeded. */
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    /** Why the last read failed; null once one succeeds. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [units.tenantId, units.id] }).onDelete('cascade'),
    uniqueIndex('calendar_links_unit_url_uq').on(t.tenantId, t.unitId, t.url),
  ],
);

/** Webhook deliveries already applied, by a hash of their body: a repeated delivery changes nothing. */
export const providerWebhookEvents = pgTable(
  'provider_webhook_events',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventKey] })],
);
