/**
 * The listings provider (Hostaway): a company's credentials and sync state, the reservations of
 * its imported properties, and the webhook events already applied (docs/product.md "Import from
 * Hostaway"). Secrets are stored encrypted (AES-256-GCM with a key derived from APP_SECRET,
 * server/lib/secret-box.ts); the webhook password only as its SHA-256 hash.
 */
import { bigint, date, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
 * A Hostaway reservation of an imported property, as last read from Hostaway. Dates are the
 * listing's local calendar dates; `status` is Hostaway's (which ones are stays: reservations.ts).
 */
export const reservations = pgTable(
  'reservations',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Hostaway's reservation id. */
    id: bigint('id', { mode: 'number' }).notNull(),
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
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [units.tenantId, units.id] }).onDelete('cascade'),
    index('reservations_unit_arrival_idx').on(t.tenantId, t.unitId, t.arrivalDate),
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
