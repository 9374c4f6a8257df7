/**
 * Stock tables: locations (units = properties, garages = storage), items, stock rows per
 * location and item, and the ledger of stock movements (inventory_logs). docs/product.md
 * "Stock movements and statuses"; docs/ARCHITECTURE.md "Where the ledger is enforced",
 * "Citus-readiness". Every table is keyed by (tenant_id, id) and foreign keys carry tenant_id
 * (Citus-ready). Quantities are integers kept >= 0 by CHECK constraints; money is numeric(12,2)
 * dollars. The input limits (docs/decisions/011-input-limits.md) are CHECK constraints too: at most
 * MAX_STOCK_QUANTITY per stock row, at most MAX_UNIT_COST dollars per item. Migration 0009 adds
 * them NOT VALID (rows written before them are not checked until they change).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { MAX_STOCK_QUANTITY, MAX_UNIT_COST } from '../../../common/contracts/fields';
import { tenants } from './auth';

const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const garages = pgTable(
  'garages',
  {
    tenantId: tenantId(),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    /** Days between ordering from a supplier and the delivery: what the forecast's reorder covers. */
    leadTimeDays: integer('lead_time_days').notNull().default(7),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('garages_tenant_name_idx').on(t.tenantId, t.name),
    check('garages_lead_time_days_range', sql`${t.leadTimeDays} between 0 and 365`),
  ],
);

export const units = pgTable(
  'units',
  {
    tenantId: tenantId(),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    /** Cleared by the service before its garage is deleted (a composite FK cannot SET NULL one column). */
    garageId: uuid('garage_id'),
    /** The listing provider's id (Hostaway listing id) for imported units. */
    externalId: text('external_id'),
    /** Guests a stay is taken to have when its source gives none (calendar links): 2 when null. */
    typicalGuests: integer('typical_guests'),
    /** IANA time zone of the property's calendar dates; null: the company's. */
    timeZone: text('time_zone'),
    createdAt: createdAt(),
  },
  (t) => [
    check('units_typical_guests_range', sql`${t.typicalGuests} between 1 and 100`),
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.garageId], foreignColumns: [garages.tenantId, garages.id] }),
    index('units_tenant_name_idx').on(t.tenantId, t.name),
    uniqueIndex('units_tenant_external_id_uq')
      .on(t.tenantId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

export const items = pgTable(
  'items',
  {
    tenantId: tenantId(),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    category: text('category').notNull(),
    minimumThreshold: integer('minimum_threshold').notNull().default(0),
    countCost: numeric('count_cost', { precision: 12, scale: 2 }).notNull().default('0'),
    /**
     * Pieces one stay uses when the company has no usage of the item to learn from (docs/product.md
     * "Forecast"); null: nothing is expected until usage is recorded.
     */
    usagePerStayDefault: numeric('usage_per_stay_default', { precision: 12, scale: 2 }),
    /**
     * The item's own service level, percent (docs/forecast.md "Spread and service level"): the
     * least chance its pick-list lines give it; null: the company's (`tenants.service_level`).
     */
    serviceLevel: smallint('service_level'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('items_tenant_name_idx').on(t.tenantId, t.name),
    // Target of the stock rows' (item_id, item_threshold) foreign keys, which copy the threshold.
    uniqueIndex('items_threshold_uq').on(t.tenantId, t.id, t.minimumThreshold),
    check('items_minimum_threshold_nonneg', sql`${t.minimumThreshold} >= 0`),
    check('items_count_cost_nonneg', sql`${t.countCost} >= 0`),
    check('items_count_cost_max', sql`${t.countCost} <= ${sql.raw(String(MAX_UNIT_COST))}`),
    check('items_usage_per_stay_default_range', sql`${t.usagePerStayDefault} between 0 and 100000`),
    check('items_service_level_range', sql`${t.serviceLevel} between 50 and 99`),
  ],
);

export const garageInventory = pgTable(
  'garage_inventory',
  {
    tenantId: tenantId(),
    // Made by the BEFORE INSERT trigger stock_row_defaults (migration 0034), not a column default:
    // a volatile default keeps Citus from sending an INSERT … SELECT to the company's shard.
    id: uuid('id').notNull(),
    garageId: uuid('garage_id').notNull(),
    itemId: uuid('item_id').notNull(),
    quantity: integer('quantity').notNull().default(0),
    /** Copy of the item's minimum_threshold, kept equal by the foreign key (filled on insert by a trigger). */
    itemThreshold: integer('item_threshold').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('garage_inventory_location_item_uq').on(t.tenantId, t.garageId, t.itemId),
    foreignKey({ columns: [t.tenantId, t.garageId], foreignColumns: [garages.tenantId, garages.id] }).onDelete(
      'cascade',
    ),
    // The item's threshold is copied into item_threshold, so alerts can be found by index, by
    // the triggers of migrations 0004 (a new row) and 0031 (a changed threshold).
    foreignKey({ name: 'garage_inventory_item_fk', columns: [t.tenantId, t.itemId], foreignColumns: [items.tenantId, items.id] }).onDelete('cascade'),
    check('garage_inventory_quantity_nonneg', sql`${t.quantity} >= 0`),
    check('garage_inventory_quantity_max', sql`${t.quantity} <= ${sql.raw(String(MAX_STOCK_QUANTITY))}`),
  ],
);

export const unitInventory = pgTable(
  'unit_inventory',
  {
    tenantId: tenantId(),
    // Made by the BEFORE INSERT trigger stock_row_defaults (migration 0034), not a column default:
    // a volatile default keeps Citus from sending an INSERT … SELECT to the company's shard.
    id: uuid('id').notNull(),
    unitId: uuid('unit_id').notNull(),
    itemId: uuid('item_id').notNull(),
    quantity: integer('quantity').notNull().default(0),
    /** Copy of the item's minimum_threshold, kept equal by the foreign key (filled on insert by a trigger). */
    itemThreshold: integer('item_threshold').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('unit_inventory_location_item_uq').on(t.tenantId, t.unitId, t.itemId),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [units.tenantId, units.id] }).onDelete('cascade'),
    // The item's threshold is copied into item_threshold, so alerts can be found by index, by
    // the triggers of migrations 0004 (a new row) and 0031 (a changed threshold).
    foreignKey({ name: 'unit_inventory_item_fk', columns: [t.tenantId, t.itemId], foreignColumns: [items.tenantId, items.id] }).onDelete('cascade'),
    check('unit_inventory_quantity_nonneg', sql`${t.quantity} >= 0`),
    check('unit_inventory_quantity_max', sql`${t.quantity} <= ${sql.raw(String(MAX_STOCK_QUANTITY))}`),
  ],
);

/** Stock movement types of the ledger (docs/product.md "Stock movements and statuses"). */
export type MovementType = (typeof movementTypes)[number];
const movementTypes = ['initial', 'external_addition', 'restock', 'consumption', 'count', 'scan'] as const;

/**
 * The ledger, one row per movement. For every location and item, the stock quantity equals the
 * sum of its movements' `quantity_change`. Movements keep no foreign key to locations or items:
 * the ledger outlives them. A transfer is two movements sharing `transfer_id` (-n at the garage,
 * +n at the unit).
 */
export const inventoryLogs = pgTable(
  'inventory_logs',
  {
    tenantId: tenantId(),
    // Time-ordered (UUID version 7, migration 0027): a company's new movements go to the end of the
    // key. Made by the BEFORE INSERT trigger ledger_row_id (migration 0034), not a column default: a
    // volatile default keeps Citus from sending an INSERT … SELECT to the company's shard.
    id: uuid('id').notNull(),
    itemId: uuid('item_id').notNull(),
    quantityChange: integer('quantity_change').notNull(),
    sourceType: text('source_type', { enum: ['unit', 'garage'] }).notNull(),
    unitId: uuid('unit_id'),
    garageId: uuid('garage_id'),
    type: text('type', { enum: movementTypes }).notNull(),
    transferId: uuid('transfer_id'),
    /** The item's count_cost (dollars) when the movement happened. */
    unitCost: numeric('unit_cost', { precision: 12, scale: 2 }).notNull().default('0'),
    userId: uuid('user_id'),
    note: text('note'),
    createdAt: createdAt(),
    /**
     * When this row was undone (docs/decisions/024-undo-by-reverse-movements.md): its reverse is a
     * later row of its own; a row undone is no longer usage. The only column of the ledger ever
     * updated.
     */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    /**
     * The scan whose confirmed counts wrote this row (schema/scans.ts), else null. Filled by its
     * default from the transaction's `app.scan_id`, which only the apply of a scan sets (decision
     * 035): every ledger primitive and `transfer_to_units` then mark their rows without a
     * parameter of their own.
     */
    scanId: uuid('scan_id').default(sql`nullif(current_setting('app.scan_id', true), '')::uuid`),
    /**
     * The API key that made this change (schema/api-keys.ts), else null; `user_id` is then the
     * key's creator. Set by the BEFORE INSERT trigger `inventory_logs_api_key` (migration 0043)
     * from the user id the writers receive, which for a request made with a key is the key's id
     * (docs/decisions/049-api-keys.md). No foreign key: the ledger outlives its keys.
     */
    apiKeyId: uuid('api_key_id'),
  },
  (t) => {
    // A usage row (the SQL function `ledger_is_usage` written out): the predicate of both usage indexes.
    const isUsage = sql`${t.sourceType} = 'unit' and ${t.quantityChange} < 0 and ${t.type} in ('consumption', 'count') and ${t.reversedAt} is null`;
    return [
      primaryKey({ columns: [t.tenantId, t.id] }),
      index('inventory_logs_tenant_created_idx').on(t.tenantId, t.createdAt),
      // A movement is at a unit or at a garage (source_type): each index holds only its own rows,
      // so a movement writes one of the two (migration 0028). A query naming the location matches.
      index('inventory_logs_unit_item_idx').on(t.tenantId, t.unitId, t.itemId).where(sql`${t.unitId} is not null`),
      index('inventory_logs_garage_item_idx').on(t.tenantId, t.garageId, t.itemId).where(sql`${t.garageId} is not null`),
      // Usage rows only (docs/product.md "Stock movements and statuses"): what cost reports read,
      // by time. Migrations 0005 and 0016 add the INCLUDE columns (unit_id, item_id, quantity_change,
      // unit_cost) that drizzle cannot express. The predicate is the SQL function `ledger_is_usage`
      // (migration 0016) written out, so that queries calling it match this index.
      index('inventory_logs_usage_idx')
        .on(t.tenantId, t.createdAt)
        .where(isUsage),
      // Whether a property recorded usage in a span (the forecast's stays departing today,
      // forecast/project.ts `scopeCte`): one probe a property instead of the company's rows.
      index('inventory_logs_unit_usage_idx')
        .on(t.tenantId, t.unitId, t.createdAt)
        .where(isUsage),
      check(
        'inventory_logs_location',
        sql`(${t.sourceType} = 'unit' and ${t.unitId} is not null) or (${t.sourceType} = 'garage' and ${t.garageId} is not null)`,
      ),
    ];
  },
);

/**
 * Usage per unit and UTC day (docs/product.md "Stock movements and statuses", usage: consumption
 * and negative count rows at units): `used` pieces and `cost_cents` (whole cents of quantity × the
 * row's unit cost). A day's totals grow with every request (migration 0011,
 * docs/decisions/011-input-limits.md): `used` is bigint (2^63 pieces take 9 × 10^12 requests of the
 * maximum 1,000,000) and `cost_cents` an unbounded numeric (~92,000 requests at the maximum
 * quantity and cost pass 2^63 cents). Kept equal to the ledger's sums by row triggers on
 * inventory_logs (migrations 0006 and 0033, docs/decisions/007-usage-rollups.md), so reports read a day of a
 * unit as one row.
 */
export const unitUsageDaily = pgTable(
  'unit_usage_daily',
  {
    tenantId: tenantId(),
    day: date('day', { mode: 'string' }).notNull(),
    unitId: uuid('unit_id').notNull(),
    used: bigint('used', { mode: 'number' }).notNull(),
    costCents: numeric('cost_cents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.unitId] })],
);

/**
 * Usage per garage, item and UTC day, where a unit's usage counts for the garage the unit is
 * assigned to now (units.garage_id): what the reorder report plans from. Kept equal to the
 * ledger's sums by triggers on inventory_logs and on units (a unit that changes garage or is
 * deleted takes its past usage with it); units without a garage count nowhere. Migration 0006.
 * garage_usage_weekly holds the same per UTC week (starting Monday), so 90 days are ~13 rows a
 * garage and item instead of 90.
 */
export const garageUsageDaily = pgTable(
  'garage_usage_daily',
  {
    tenantId: tenantId(),
    day: date('day', { mode: 'string' }).notNull(),
    garageId: uuid('garage_id').notNull(),
    itemId: uuid('item_id').notNull(),
    used: bigint('used', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.garageId, t.itemId] })],
);

/** garage_usage_daily summed per UTC week; `week` is the week's Monday. Migration 0006. */
export const garageUsageWeekly = pgTable(
  'garage_usage_weekly',
  {
    tenantId: tenantId(),
    week: date('week', { mode: 'string' }).notNull(),
    garageId: uuid('garage_id').notNull(),
    itemId: uuid('item_id').notNull(),
    used: bigint('used', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.week, t.garageId, t.itemId] })],
);

/**
 * How many unit stock rows of a tenant are low and critical (docs/product.md "Stock movements and
 * statuses"; the Dashboard's counts): the sums of `low` and `critical` over the tenant's rows. Kept
 * by triggers on unit_inventory, once per statement (migrations 0015 and 0027,
 * docs/decisions/021-dashboard-alert-counts.md): the status changes of a statement's rows add to a
 * row of their tenant that no other transaction holds, or to a new one when all are held, so
 * concurrent stock writes never wait for each other here. A tenant has as many rows as it had
 * writers changing a status at the same moment; a row may be negative, the sums never are.
 */
export const unitAlertCounts = pgTable(
  'unit_alert_counts',
  {
    tenantId: tenantId(),
    id: uuid('id').notNull().defaultRandom(),
    low: integer('low').notNull(),
    critical: integer('critical').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);
