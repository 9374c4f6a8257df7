/**
 * Rate limits shared by every server on one database (decision 041): each limit allows `points`
 * per window of `durationSeconds` per key (a client address, a company, an email address, a
 * property), counted with rate-limiter-flexible. On PostgreSQL the counts live in the table
 * `rate_limits` (migration 0030), so N servers behind a balancer allow a limit once, not N times;
 * on the embedded PGlite, one process by construction, they live in that process's memory.
 *
 * A window is fixed: it starts with the first point taken after the previous one ended, and a
 * refused point still counts. When the table cannot be reached, taking a point throws the
 * database's error, which the error handler answers 503 UNAVAILABLE like every other request of
 * an outage (decision 010); nothing is let through uncounted.
 */
import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { getTableName } from 'drizzle-orm';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { pgPoolOf, type Db } from '../db/client';
import { rateLimits } from '../db/schema/limits';

/** One limit of the product. */
export interface LimitSetting {
  /** The limit's name, the prefix of its keys in the shared table (`name:key`): one per limit. */
  name: string;
  /** Points a key may take per window. */
  points: number;
  /** Length of a window, in seconds. */
  durationSeconds: number;
}

/** What taking a point of a limit gave. */
export interface LimitUse {
  /** False past the limit: the caller refuses what was asked. */
  allowed: boolean;
  /** Points the key took in the current window, this one included. */
  used: number;
  /** Milliseconds until the current window ends. */
  msBeforeReset: number;
}

/** A limit made by {@link Limits.limit}; every method throws the store's error when its database is unreachable. */
export interface Limit {
  /** Takes one point for `key`. */
  take(key: string): Promise<LimitUse>;
  /** Takes one point for `key` that is never refused, though it counts against the next ones. */
  count(key: string): Promise<void>;
  /** Starts a new window for `key` now, with one point taken. */
  restart(key: string): Promise<void>;
}

/** Makes the limits of one server on its database. */
export interface Limits {
  limit(setting: LimitSetting): Limit;
}

function use(res: RateLimiterRes, allowed: boolean): LimitUse {
  return { allowed, used: res.consumedPoints, msBeforeReset: res.msBeforeNext };
}

/** Characters of the table's `key` column (migration 0030), the limit's name and its separator included. */
const MAX_STORED_KEY = 255;

/**
 * `key` as counted by the limit named `name`: itself, or its SHA-256 when the stored key would not
 * fit the column (an email address may have 254 characters).
 */
function keyOf(name: string, key: string): string {
  return name.length + 1 + key.length <= MAX_STORED_KEY ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

function wrap(limiter: RateLimiterAbstract, setting: LimitSetting): Limit {
  return {
    // rate-limiter-flexible rejects with a RateLimiterRes past the limit, with the store's own
    // error when it cannot count.
    take: (key) =>
      limiter.consume(keyOf(setting.name, key)).then(
        (res) => use(res, true),
        (err: unknown) => {
          if (err instanceof RateLimiterRes) return use(err, false);
          throw err;
        },
      ),
    count: async (key) => {
      await limiter.penalty(keyOf(setting.name, key));
    },
    restart: async (key) => {
      await limiter.set(keyOf(setting.name, key), 1, setting.durationSeconds);
    },
  };
}

/**
 * The limits of a server on `db`: in the shared table on PostgreSQL (drizzle's client is then a
 * `pg` pool), in memory on PGlite. The table is made by its migration, never by the store.
 * Expired rows are deleted by the store every 5 minutes (those expired an hour before); every
 * limit shares the table, so the first one made does it for all.
 */
export function openLimits(db: Db): Limits {
  const pool = pgPoolOf(db);
  if (!pool) {
    return { limit: (s) => wrap(new RateLimiterMemory({ keyPrefix: s.name, points: s.points, duration: s.durationSeconds }), s) };
  }
  let cleared = false;
  return {
    limit(s) {
      const limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: getTableName(rateLimits),
        tableCreated: true,
        clearExpiredByTimeout: !cleared,
        keyPrefix: s.name,
        points: s.points,
        duration: s.durationSeconds,
      });
      cleared = true;
      return wrap(limiter, s);
    },
  };
}

/**
 * A store for @fastify/rate-limit (`store` of its registration) counting with `limits`: each
 * route's `config.rateLimit` ({ max, timeWindow in ms }) becomes a limit named after the route
 * (`POST /api/auth/*`), so the plugin keeps its hook, its key (the client address), its headers
 * and its 429, and the count is shared by every server. A store error (the database
 * unreachable) fails the request, answered 503 by the error handler. Only routes with their own
 * `config.rateLimit` are counted (the plugin is registered with `global: false`).
 */
export function rateLimitStore(limits: Limits): FastifyRateLimitStoreCtor {
  return class RouteLimitStore implements FastifyRateLimitStore {
    constructor(
      _settings: unknown,
      private readonly route?: Limit,
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
      if (!this.route) return callback(new Error('@fastify/rate-limit counts only routes with their own config.rateLimit'));
      this.route.take(key).then(
        (u) => callback(null, { current: u.used, ttl: u.msBeforeReset }),
        (err: Error) => callback(err),
      );
    }

    child(settings: object): FastifyRateLimitStore {
      // The plugin passes the route's merged settings, with the route itself as `routeInfo`.
      const { max, timeWindow, routeInfo } = settings as { max: unknown; timeWindow: unknown; routeInfo: { method: string | string[]; url: string } };
      if (typeof max !== 'number' || typeof timeWindow !== 'number') throw new Error(`Rate limit of ${routeInfo.url}: max and timeWindow must be numbers`);
      const name = `${[routeInfo.method].flat().join(',')} ${routeInfo.url}`;
      return new RouteLimitStore(settings, limits.limit({ name, points: max, durationSeconds: Math.ceil(timeWindow / 1000) }));
    }
  };
}
