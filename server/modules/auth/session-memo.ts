/**
 * Sessions already verified by better-auth, remembered per exact Cookie header until the signed
 * session copy in it expires (docs/decisions/008-session-memo.md). A request that repeats a
 * Cookie header seen before skips better-auth's session read: two HMAC checks, the decoding of
 * the copy and the endpoint machinery, ~0.4 ms of the server's main thread per request.
 *
 * It never accepts what better-auth would refuse: an entry is made only when better-auth served
 * the session from a valid copy in that header (no cookie set in its answer), and it lasts until
 * the copy's own `expiresAt` (ms since the epoch, UTC; better-auth's rule for trusting a copy,
 * `session.cookieCache`, decision 006) or the session's expiry, whichever comes first. Sign-out
 * goes further than the copy alone: the signed-out Cookie header is refused until its copy
 * expires, on this server process.
 */
import { LRUCache } from 'lru-cache';
import { parseCookies } from 'better-auth/cookies';

/** The signed-in user of a remembered session. */
export interface SessionUser {
  id: string;
  email: string;
}

/** A remembered Cookie header: its user, or `null` once signed out; valid until `until` (ms, UTC). */
interface Entry {
  user: SessionUser | null;
  until: number;
}

/** Distinct Cookie headers kept (least recently used dropped first): a few MB at most. */
const MAX_ENTRIES = 10_000;

export class SessionMemo {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });

  /** @param copyCookieName name of better-auth's signed session copy cookie (`authCookies.sessionData.name`). */
  constructor(private readonly copyCookieName: string) {}

  /**
   * What is known of `cookieHeader` now: the user, `null` when it was signed out, `undefined`
   * when unknown or expired (then better-auth must read it).
   */
  lookup(cookieHeader: string): SessionUser | null | undefined {
    const entry = this.entries.get(cookieHeader);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(cookieHeader);
      return undefined;
    }
    return entry.user;
  }

  /**
   * Remembers the user that better-auth has just served from the session copy in `cookieHeader`
   * (call it only when better-auth set no cookie while reading). Not remembered when the copy's
   * expiry cannot be read from the header (absent, split into chunks, or of another format).
   * @param sessionExpiresAt the session's own expiry.
   */
  remember(cookieHeader: string, user: SessionUser, sessionExpiresAt: Date): void {
    const copyExpiresAt = this.copyExpiresAt(cookieHeader);
    if (copyExpiresAt === null) return;
    const until = Math.min(copyExpiresAt, sessionExpiresAt.getTime());
    if (until > Date.now()) this.entries.set(cookieHeader, { user, until });
  }

  /** Sign-out: `cookieHeader` is refused until its session copy would have expired (at most the copy's lifetime). */
  signOut(cookieHeader: string): void {
    const until = this.copyExpiresAt(cookieHeader);
    if (until !== null && until > Date.now()) this.entries.set(cookieHeader, { user: null, until });
    else this.entries.delete(cookieHeader);
  }

  /**
   * `expiresAt` of the session copy in the header, or null. The copy is better-auth's "compact"
   * cookie cache: base64url JSON `{ session, expiresAt, signature }`; its signature was checked
   * by better-auth before any entry is made from it.
   */
  private copyExpiresAt(cookieHeader: string): number | null {
    const value = parseCookies(cookieHeader).get(this.copyCookieName);
    if (!value) return null;
    try {
      const { expiresAt } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { expiresAt?: unknown };
      return typeof expiresAt === 'number' && Number.isFinite(expiresAt) ? expiresAt : null;
    } catch {
      return null;
    }
  }
}
