/**
 * Plans and the tenant's subscription state (docs/product.md "Entities" subscription_tiers,
 * "States and transitions", "Plans, trial and limits"). `subscription_tiers` and
 * `processed_webhook_events` are global reference tables (no tenant_id).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './auth';

export const subscriptionTiers = pgTable('subscription_tiers', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  /** Monthly price in dollars (per unit when `perUnit`). */
  price: numeric('price', { precision: 12, scale: 2 }).notNull(),
  /** Yearly price in dollars (per unit when `perUnit`). */
  yearlyPrice: numeric('yearly_price', { precision: 12, scale: 2 }).notNull(),
  perUnit: boolean('per_unit').notNull().default(false),
  stripePriceIdMonthly: text('stripe_price_id_monthly'),
  stripePriceIdYearly: text('stripe_price_id_yearly'),
  maxUnits: integer('max_units').notNull(),
  maxItems: integer('max_items').notNull(),
  maxGarages: integer('max_garages').notNull(),
  maxUsers: integer('max_users').notNull(),
  /** Feature map, snake_case name -> enabled. */
  features: jsonb('features').$type<Record<string, boolean>>().notNull().default({}),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** One row per tenant: its trial and its paid subscription as the payment provider reports it. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    tenantId: uuid('tenant_id')
      .primaryKey()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['none', 'active', 'past_due', 'canceled'] })
      .notNull()
      .default('none'),
    tierId: uuid('tier_id').references(() => subscriptionTiers.id),
    billingInterval: text('billing_interval', { enum: ['month', 'year'] }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Creation time of the newest provider event applied, so older events never undo newer ones. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('subscriptions_interval', sql`${t.billingInterval} is null or ${t.billingInterval} in ('month','year')`)],
);

/** Provider webhook event ids already applied; a replay finds its id here and changes nothing. */
export const processedWebhookEvents = pgTable('processed_webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});
