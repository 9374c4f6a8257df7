/**
 * Requests a company has already had answered, by the `Idempotency-Key` its client sent
 * (server/lib/idempotency.ts, docs/decisions/047-idempotency-keys.md): a stock write sent again
 * with the same key gets the first answer and writes nothing twice. A key is kept at least
 * IDEMPOTENCY_KEEP_HOURS (common/idempotency.ts).
 */
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './auth';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The client's key, as sent (1 to 255 printable ASCII characters). */
    key: text('key').notNull(),
    /** SHA-256 (hex) of the method, path and body of the first request sent with the key. */
    fingerprint: text('fingerprint').notNull(),
    /** The answer's status once the request succeeded; null while it is being written. */
    status: integer('status'),
    /** The answer's JSON text once the request succeeded. */
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index('idempotency_keys_age_idx').on(t.tenantId, t.createdAt)],
);
