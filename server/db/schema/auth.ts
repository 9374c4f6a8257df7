/**
 * Identity tables owned by better-auth (core + organization plugin), mapped to our table
 * names. A better-auth "organization" is our tenant; a "member" is a membership with a role.
 * Field names (the object keys) are the ones better-auth's drizzle adapter expects.
 * Source: better-auth core schema and organization plugin schema (1.7.x).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token: text('token').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    activeOrganizationId: uuid('active_tenant_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('accounts_user_id_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/**
 * Tenants (better-auth organizations). `onboardingStep` is the last onboarding step the server
 * saved; `onboardingCompletedAt` is set by "Complete Setup" (docs/product.md
 * "Screens: Onboarding").
 */
export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  logo: text('logo'),
  metadata: text('metadata'),
  onboardingStep: text('onboarding_step', { enum: ['company', 'items', 'garage', 'units'] })
    .notNull()
    .default('company'),
  onboardingCompletedAt: timestamp('onboarding_completed_at', { withTimezone: true }),
  /** IANA time zone of the company: its days (pick lists, the daily email) and its properties' by default. */
  timeZone: text('time_zone').notNull().default('UTC'),
  /**
   * The pick lists' service level, percent: the chance that an arriving stay finds every item it
   * needs (docs/forecast.md "Spread and service level"); common/contracts/forecast.ts
   * SERVICE_LEVELS are the ones offered.
   */
  serviceLevel: smallint('service_level').notNull().default(95),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [check('tenants_service_level_range', sql`${t.serviceLevel} between 50 and 99`)]);

/** Memberships (better-auth members): a user's role in a tenant — owner, admin or member. */
export const memberships = pgTable(
  'memberships',
  {
    organizationId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    /** Whether the member gets the morning email (docs/product.md "Daily email"). */
    dailyEmail: boolean('daily_email').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), index('memberships_user_id_idx').on(t.userId)],
);

/**
 * Invitations, in the organization plugin's model (status 'pending', 'accepted', 'canceled'),
 * written by modules/team (docs/decisions/029-team-and-invitations.md). `tokenHash` is the
 * SHA-256 (hex) of the secret in the emailed link; a resend replaces it.
 */
export const invitations = pgTable(
  'invitations',
  {
    organizationId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    email: text('email').notNull(),
    role: text('role'),
    teamId: text('team_id'),
    status: text('status').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    inviterId: uuid('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Nullable only because better-auth refuses a required column it never writes; every
    // invitation modules/team writes has one.
    tokenHash: text('token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('invitations_token_hash_idx').on(t.organizationId, t.tokenHash), index('invitations_token_lookup_idx').on(t.tokenHash)],
);
