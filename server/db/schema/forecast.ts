/**
 * What the restock forecast learns and sends (docs/product.md "Forecast", "Daily email"): usage
 * per stay learned from the ledger for every property and item, the company's figure per item,
 * and the daily emails already sent. The learned rates are a cache of the ledger and the stays,
 * rebuilt by `refreshUsageRates` (modules/forecast/rates.ts); nothing else writes them.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, foreignKey, index, integer, json, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants, users } from './auth';
import { items, units } from './stock';

const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/** How a rate was found: the property's own stays (shrunk towards the company's), the company's, the item's default, or nothing. */
export const rateBases = ['property', 'company', 'default', 'none'] as const;

/**
 * The usage of an item at a property, per stay and per guest-night, as last learned. `stays` and
 * `guest_nights` are the property's stays the rate was learned from (departed in the learning
 * window).
 */
export const usageRates = pgTable(
  'usage_rates',
  {
    tenantId: tenantId(),
    unitId: uuid('unit_id').notNull(),
    itemId: uuid('item_id').notNull(),
    perStay: numeric('per_stay', { precision: 14, scale: 4 }).notNull(),
    perGuestNight: numeric('per_guest_night', { precision: 14, scale: 4 }).notNull(),
    /** Share (0..1) of a stay's expected use that does not grow with its guest-nights. */
    fixedShare: numeric('fixed_share', { precision: 5, scale: 4 }).notNull(),
    stays: integer('stays').notNull(),
    guestNights: integer('guest_nights').notNull(),
    basis: text('basis', { enum: rateBases }).notNull(),
    learnedAt: timestamp('learned_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.unitId, t.itemId] }),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [units.tenantId, units.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.itemId], foreignColumns: [items.tenantId, items.id] }).onDelete('cascade'),
    check('usage_rates_nonneg', sql`${t.perStay} >= 0 and ${t.perGuestNight} >= 0 and ${t.fixedShare} between 0 and 1`),
  ],
);

/** The company's usage of an item: the median over its properties that had stays, and how many did. */
export const itemUsageRates = pgTable(
  'item_usage_rates',
  {
    tenantId: tenantId(),
    itemId: uuid('item_id').notNull(),
    perStay: numeric('per_stay', { precision: 14, scale: 4 }).notNull(),
    perGuestNight: numeric('per_guest_night', { precision: 14, scale: 4 }).notNull(),
    fixedShare: numeric('fixed_share', { precision: 5, scale: 4 }).notNull(),
    properties: integer('properties').notNull(),
    basis: text('basis', { enum: rateBases }).notNull(),
    /**
     * The dispersion φ of a stay's use of the item: its variance is φ × its expected use
     * (forecast/service-level.ts), learned by the rates job over weekly blocks; 1 (Poisson)
     * before any block with stays. Bounded as MIN_DISPERSION and MAX_DISPERSION are.
     */
    dispersion: numeric('dispersion', { precision: 8, scale: 4 }).notNull().default('1'),
    learnedAt: timestamp('learned_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.itemId] }),
    check('item_usage_rates_dispersion_range', sql`${t.dispersion} between 0.05 and 50`),
    foreignKey({ columns: [t.tenantId, t.itemId], foreignColumns: [items.tenantId, items.id] }).onDelete('cascade'),
  ],
);

/** The daily emails sent: one row per member and day of the company's time zone, taken before sending. */
export const dailyEmailSends = pgTable(
  'daily_email_sends',
  {
    tenantId: tenantId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.day] })],
);

/**
 * The forecast's read model (modules/forecast/projections.ts, docs/decisions/037-forecast-read-model.md):
 * one property's projection up to `end_day` (exclusive), computed on `day` (the property's today)
 * with the rates learned at `rates_learned_at` by the model `model_version`. The `first_*` columns and `items_short` rank the
 * property on the Forecast screen; `short_json` and `pick_json` are parts of the answers as JSON
 * text, sent as they are (docs/decisions/037-forecast-read-model.md), with the items' names and
 * categories in them. Rebuilt, never edited.
 */
export const unitProjections = pgTable(
  'unit_projections',
  {
    tenantId: tenantId(),
    unitId: uuid('unit_id').notNull(),
    endDay: date('end_day', { mode: 'string' }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ratesLearnedAt: timestamp('rates_learned_at', { withTimezone: true }),
    /**
     * The model the projection was computed with (projections.ts `FORECAST_MODEL_VERSION`): a row
     * of any other is stale. 0: written before versions were kept (migration 0024), always stale.
     */
    modelVersion: integer('model_version').notNull().default(0),
    /** The company's service level (percent) the pick list's brings were computed at; null before levels were kept, always stale. */
    serviceLevel: integer('service_level'),
    stays: integer('stays').notNull(),
    itemsShort: integer('items_short').notNull(),
    firstShortfallDate: date('first_shortfall_date', { mode: 'string' }),
    firstRunsOut: boolean('first_runs_out'),
    /** Of the short items, how many run out before a check-in (the rest are only below their minimum): the Forecast's first section counts the properties with one. */
    itemsRunningOut: integer('items_running_out').notNull().default(0),
    firstItemId: uuid('first_item_id'),
    /** The short items as the Forecast screen lists them (JSON text, ordered by shortfall). */
    shortJson: text('short_json').notNull(),
    /** The lines of a pick list (JSON text, in item-name order), and each line's [item id, quantity to bring] (JSON). */
    pickJson: text('pick_json').notNull(),
    brings: json('brings').$type<[string, number][]>().notNull(),
    /** What the pick list's brings buy (PickListUnit `service`, JSON text; 'null' without an arrival). */
    serviceJson: text('service_json').notNull().default('null'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.unitId, t.endDay] }),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [units.tenantId, units.id] }).onDelete('cascade'),
  ],
);

/**
 * What changed a property's projection inputs since its projections were computed: a row per
 * statement and property, written by triggers on stock rows, stays, a property's typical guests
 * and an item's name, category or default use (migrations 0023 and 0027). Consumed by the next
 * projection of the property. No foreign keys: rows are written while their property or company
 * is being deleted.
 */
export const forecastChanges = pgTable(
  'forecast_changes',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenantId: uuid('tenant_id').notNull(),
    unitId: uuid('unit_id').notNull(),
  },
  // Keyed by company first, as every company table is (a Citus distribution key, migration 0031).
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('forecast_changes_unit_idx').on(t.tenantId, t.unitId)],
);
