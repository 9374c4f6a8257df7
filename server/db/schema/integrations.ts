/**
 * Credentials for the listings provider (docs/product.md "Entities": provider credentials record).
 * Secrets are stored encrypted (AES-256-GCM with a key derived from APP_SECRET,
 * docs/ARCHITECTURE.md "The parts").
 */
import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './auth';

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
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.provider] })],
);
