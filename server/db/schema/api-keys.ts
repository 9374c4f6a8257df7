/**
 * A company's API keys (docs/product.md "API keys", docs/decisions/049-api-keys.md): a script or
 * another system calls the /api routes with `Authorization: Bearer <key>`, as the company, with
 * the key's role. Only the SHA-256 of a key is stored (`key_hash`: the lookup of every
 * request made with a key, by index), with a short `prefix` to recognise it on screen. A revoked key keeps
 * its row: the ledger names the key that made each change (`inventory_logs.api_key_id`).
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants, users } from './auth';

export const apiKeys = pgTable(
  'api_keys',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /**
     * Made by the server (modules/api-keys/key.ts `newKeyId`): a UUID whose version digit is 8, so
     * the ledger's trigger tells a key's movements from a person's without a lookup (migration 0043).
     */
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    /** 'read_only' (GET routes of members), 'member' or 'admin' (common/contracts/api-keys.ts). */
    role: text('role', { enum: ['read_only', 'member', 'admin'] }).notNull(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text('key_hash').notNull(),
    /** The key's first characters, shown to recognise it (never enough to use it). */
    prefix: text('prefix').notNull(),
    /** Who created it; the key acts with at most this person's current role, and not at all once they left the company. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last request made with it, to the minute (written at most once a minute per key). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Looked up by hash before the company is known; not unique, since a company table's unique
    // indexes hold tenant_id (server/db/distribution-rules.ts) — 256 random bits do not collide.
    index('api_keys_key_hash_idx').on(t.keyHash),
    index('api_keys_tenant_created_idx').on(t.tenantId, t.createdAt),
    check('api_keys_id_version', sql`substr(${t.id}::text, 15, 1) = '8'`),
    check('api_keys_name_length', sql`char_length(${t.name}) between 1 and 200`),
  ],
);
