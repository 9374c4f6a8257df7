/**
 * Scans of the AI photo scanner (docs/product.md "Screens: AI photo scanner", decision 035): the photo of a
 * location as the server re-encoded it, what the vision model found in it, and whether and how its
 * counts were applied. A scan is applied at most once: the apply locks its row and sets
 * `applied_at` in the transaction that writes the movements, each of which carries the scan's id
 * (`inventory_logs.scan_id`). Like the ledger, a scan keeps no foreign key to its location or
 * items, and outlives them.
 */
import { sql } from 'drizzle-orm';
import { check, customType, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './auth';

/** Raw bytes; services write and read them as base64 text (`decode`/`encode`), the same on both drivers. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const scans = pgTable(
  'scans',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    /** The location photographed: a unit, or (for a stocktake) a garage. */
    unitId: uuid('unit_id'),
    garageId: uuid('garage_id'),
    /** Who sent the photo. */
    userId: uuid('user_id'),
    /** The JPEG as re-encoded (modules/scans/photo.ts). */
    photo: bytea('photo').notNull(),
    /** The detections after the rules: `[{ item_id, quantity, confidence }]`. */
    detections: jsonb('detections').notNull(),
    /** The model that counted. */
    model: text('model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set in the transaction that applied the counts; never cleared. */
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    appliedBy: uuid('applied_by'),
    /** How the counts were applied ('restock'). */
    appliedMode: text('applied_mode'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('scans_tenant_created_idx').on(t.tenantId, t.createdAt),
    check('scans_location', sql`(${t.unitId} is null) <> (${t.garageId} is null)`),
    check('scans_applied', sql`(${t.appliedAt} is null) = (${t.appliedMode} is null)`),
  ],
);
