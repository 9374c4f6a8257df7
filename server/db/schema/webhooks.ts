/**
 * A company's webhooks (docs/product.md "Webhooks", docs/decisions/050-webhooks.md): its endpoints,
 * the events that happened, and each event's delivery to each endpoint subscribed to it. An event
 * and its deliveries are written by `record_webhook_event` (migration 0044) in the transaction of
 * the change that caused it; the delivery worker (modules/webhooks/delivery.ts) sends the pending
 * deliveries and records each attempt. An endpoint's signing secret is stored encrypted
 * (server/lib/secret-box.ts, purpose 'webhook-secrets').
 */
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants, users } from './auth';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    url: text('url').notNull(),
    /** What it is for; '' for none. */
    description: text('description').notNull().default(''),
    /** The event types it receives (common/contracts/webhook-events.ts WEBHOOK_EVENT_TYPES). */
    events: text('events').array().notNull(),
    /** The Standard Webhooks secret (`whsec_...`), sealed by the secret box. */
    secretEnc: text('secret_enc').notNull(),
    /** 'enabled' receives its events; 'disabled' none. */
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull().default('enabled'),
    /** Why it is disabled; null while enabled. */
    disabledReason: text('disabled_reason'),
    /** The first failed attempt since its last success; null while it succeeds. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The primary key's tenant_id prefix is the one lookup `record_webhook_event` makes.
    primaryKey({ columns: [t.tenantId, t.id] }),
    check('webhook_endpoints_status_known', sql`${t.status} in ('enabled', 'disabled')`),
    check('webhook_endpoints_url_length', sql`char_length(${t.url}) between 1 and 2000`),
    check('webhook_endpoints_description_length', sql`char_length(${t.description}) <= 200`),
    check('webhook_endpoints_events_some', sql`cardinality(${t.events}) >= 1`),
  ],
);

/** An event as it happened: its id is the `webhook-id` of every delivery of it. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** `msg_` and 32 random hex digits. */
    id: text('id').notNull(),
    /** An event type of WEBHOOK_EVENT_TYPES, or 'webhook.test'. */
    type: text('type').notNull(),
    /** The envelope's `data`. */
    data: jsonb('data').notNull(),
    /** When it happened: the envelope's `timestamp`. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // The retention sweep's scan across companies (docs/decisions/050-webhooks.md).
    index('webhook_events_created_idx').on(t.createdAt),
    check('webhook_events_id_prefix', sql`${t.id} like 'msg\\_%'`),
  ],
);

/**
 * One event's delivery to one endpoint. 'pending' ones are due at `next_attempt_at`; a sender
 * holds one while `lease_until` is ahead (docs/decisions/050-webhooks.md "The lease").
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    eventId: text('event_id').notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    /** 'pending', 'succeeded' or 'failed' (common/contracts/webhooks.ts). */
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; null once succeeded or failed. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Until when the sender that claimed it holds it; no other sender takes it before. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('webhook_deliveries_event_endpoint_uq').on(t.tenantId, t.eventId, t.endpointId),
    foreignKey({ columns: [t.tenantId, t.eventId], foreignColumns: [webhookEvents.tenantId, webhookEvents.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.endpointId], foreignColumns: [webhookEndpoints.tenantId, webhookEndpoints.id] }).onDelete('cascade'),
    // The sender's scan across companies: the pending ones, by due time.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // An endpoint's delivery log, newest first.
    index('webhook_deliveries_endpoint_created_idx').on(t.tenantId, t.endpointId, t.createdAt),
    check('webhook_deliveries_status_known', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);
