/**
 * Identities (user, company, role) of live sessions, kept in memory by session token, so a
 * request does not read its session and membership from the database again
 * (docs/decisions/023-identity-cache.md).
 *
 * Correctness rests on the database telling every server process what changed: the user's id is
 * sent on the channel `identity_changed` when a session ends or is renewed or a user's email
 * changes or the user is deleted (triggers on sessions and users, migrations 0014 and 0032), and
 * when a membership is made, changed or removed (by the writer's own statement,
 * `identityChanged`: on Citus a trigger on memberships fires on a worker, whose notifications no
 * server hears). An entry is
 * - used and made only while the LISTEN is up (db/listen.ts): a feed that went down empties the
 *   cache, and nothing is remembered until it is up again;
 * - dropped when its user changes;
 * - not made from a read that a change overtook (the change counter moved while the identity was
 *   read), so a read that saw the old membership never outlives the change;
 * - trusted until the session's own expiry, and never longer than MAX_AGE_MS;
 * - made only for members of a company: an account without one is in onboarding, where creating
 *   the company must show at once.
 * A change made by this process's own request (sign-out, a password change that ends the other
 * sessions) is applied before that request is answered: see `settle`.
 */
import { LRUCache } from 'lru-cache';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client';
import { listen } from '../../db/listen';
import type { Identity } from './identity';

/** Sessions kept (least recently used dropped first): about 200 bytes each. */
const MAX_ENTRIES = 10_000;
/** Longest time an entry is trusted, in ms, whatever the feed says: a bound on any missed change. */
export const MAX_AGE_MS = 5 * 60_000;

/** The channel the identity triggers notify, with the changed user's id as the payload. */
export const IDENTITY_CHANNEL = 'identity_changed';

/**
 * Tells every server process, once the caller's transaction commits, that the identity of
 * `userId` changed: a membership of theirs was made, changed or removed in `tx`.
 */
export async function identityChanged(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${IDENTITY_CHANNEL}, ${userId})`);
}

interface Entry {
  identity: Identity;
  /** ms since the epoch (UTC) after which the entry is not used. */
  until: number;
}

export class IdentityCache {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  private live = false;
  /** Moves on every change seen and every state change of the feed. */
  private changes = 0;

  /**
   * @param settleChanges resolves once every change committed before the call has reached this
   *   cache (the listener's barrier).
   */
  constructor(private readonly settleChanges: () => Promise<void> = async () => {}) {}

  /** True while the feed is up, so entries are used and made. */
  get isLive(): boolean {
    return this.live;
  }

  /** The feed is up: entries may be used and made from now on. */
  up(): void {
    this.entries.clear();
    this.changes++;
    this.live = true;
  }

  /** The feed is down: changes may be missed, so nothing is used or kept until it is up again. */
  down(): void {
    this.live = false;
    this.entries.clear();
    this.changes++;
  }

  /** `userId`'s sessions, membership or account changed: their entries go. */
  changed(userId: string): void {
    this.changes++;
    for (const [token, entry] of this.entries.entries()) if (entry.identity.userId === userId) this.entries.delete(token);
  }

  /** The identity of the session `token`, when known and still trusted at `now` (ms, UTC). */
  get(token: string, now = Date.now()): Identity | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(token);
    if (entry && entry.until <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry?.identity;
  }

  /** A mark to take before reading an identity from the database, for `remember`. */
  mark(): number {
    return this.changes;
  }

  /**
   * Remembers `identity` of the session `token` (expiring at `sessionExpiresAt`), read from the
   * database after `mark` was taken; not when a change or a feed failure came in between.
   */
  remember(token: string, identity: Identity, sessionExpiresAt: Date, mark: number, now = Date.now()): void {
    if (!this.live || mark !== this.changes || identity.tenantId === null) return;
    const until = Math.min(sessionExpiresAt.getTime(), now + MAX_AGE_MS);
    if (until > now) this.entries.set(token, { identity, until });
  }

  /** Resolves once every change committed before the call has been applied here. */
  settle(): Promise<void> {
    return this.settleChanges();
  }
}

/**
 * An IdentityCache fed by the `identity_changed` notifications of `database`; `close` stops the
 * feed (the cache then stops answering).
 */
export function openIdentityCache(database: Database): { cache: IdentityCache; close(): Promise<void> } {
  // The barrier is asked for only once requests arrive, after `listener` is assigned.
  const cache = new IdentityCache(() => listener.barrier());
  const listener = listen(database, IDENTITY_CHANNEL, {
    notify: (userId) => cache.changed(userId),
    up: () => cache.up(),
    down: () => cache.down(),
  });
  return {
    cache,
    async close() {
      cache.down();
      await listener.close();
    },
  };
}
