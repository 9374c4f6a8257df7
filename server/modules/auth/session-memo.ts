/**
 * Session tokens already verified by better-auth, remembered per signed session cookie
 * (docs/decisions/014-origins-sessions-accounts.md, which revises decision 008). A request whose
 * `session_token` cookie carries a signed token seen before skips better-auth's session read: two
 * HMAC checks, the decoding of the signed copy and the endpoint machinery, ~0.4 ms of the
 * server's main thread per request.
 *
 * The memo only answers "this signed cookie carries that token": whether the session still
 * exists is asked of the database on every request (session.ts), so a sign-out, on any server
 * process, is refused on the next request. The key is the cookie's value, not the Cookie header,
 * so the order of the cookies and any other cookie beside them make no difference.
 *
 * An entry is made only from a cookie better-auth has just verified, and lasts until the signed
 * session copy of that request expires (ms since the epoch, UTC; `session.cookieCache`, decision
 * 006): better-auth then reads the session again, which renews the copy and slides the session's
 * expiry (`session.updateAge`) as it would without the memo.
 */
import { LRUCache } from 'lru-cache';
import { parseCookies } from 'better-auth/cookies';

/** A verified signed cookie: the session token it carries, trusted until `until` (ms, UTC). */
interface Entry {
  token: string;
  until: number;
}

/** Distinct signed session cookies kept (least recently used dropped first): a few MB at most. */
const MAX_ENTRIES = 10_000;

export class SessionMemo {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });

  /**
   * @param tokenCookieName better-auth's signed session token cookie (`authCookies.sessionToken.name`).
   * @param copyCookieName better-auth's signed session copy cookie (`authCookies.sessionData.name`).
   */
  constructor(
    private readonly tokenCookieName: string,
    private readonly copyCookieName: string,
  ) {}

  /** The session token of the signed cookie in `cookieHeader` when it was verified before and is still trusted; else undefined. */
  lookup(cookieHeader: string): string | undefined {
    const signed = parseCookies(cookieHeader).get(this.tokenCookieName);
    if (!signed) return undefined;
    const entry = this.entries.get(signed);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(signed);
      return undefined;
    }
    return entry.token;
  }

  /**
   * Remembers that the signed cookie in `cookieHeader` carries `token` (call it only when
   * better-auth has just served that token's session from this header and set no cookie). Not
   * remembered when the copy's expiry cannot be read from the header (absent, split into chunks,
   * or of another format).
   */
  remember(cookieHeader: string, token: string): void {
    const cookies = parseCookies(cookieHeader);
    const signed = cookies.get(this.tokenCookieName);
    const until = copyExpiresAt(cookies.get(this.copyCookieName));
    if (signed && until !== null && until > Date.now()) this.entries.set(signed, { token, until });
  }
}

/**
 * `expiresAt` of a session copy, or null. The copy is better-auth's "compact" cookie cache:
 * base64url JSON `{ session, expiresAt, signature }`; better-auth checked its signature before
 * any entry is made from it.
 */
function copyExpiresAt(copy: string | undefined): number | null {
  if (!copy) return null;
  try {
    const { expiresAt } = JSON.parse(Buffer.from(copy, 'base64url').toString('utf8')) as { expiresAt?: unknown };
    return typeof expiresAt === 'number' && Number.isFinite(expiresAt) ? expiresAt : null;
  } catch {
    return null;
  }
}
