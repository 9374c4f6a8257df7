/**
 * Rate limits' counters, shared by every server on one PostgreSQL database (server/lib/limits.ts,
 * migration 0030). The layout is the one rate-limiter-flexible's Postgres store reads and writes:
 * one row per limited key (the limit's prefix and what it counts, e.g. `signin:203.0.113.7`), the
 * points spent in the current window and when the window ends, in epoch milliseconds (null: never).
 * Global, not per tenant: the tenant, when it matters, is part of the key.
 */
import { bigint, integer, pgTable, varchar } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
