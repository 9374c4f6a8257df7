/**
 * The token of a daily email's unsubscribe link (docs/product.md "Daily email"): it proves which
 * member of which company the email was sent to, so the link turns the email off without signing
 * in. The text `<tenant id>.<user id>.<signature>`, the signature an HMAC-SHA256 (base64url) of
 * both ids under a key derived from APP_SECRET for this purpose only (lib/secret-box.ts
 * `derivedKey`). It does not expire: an email read months later still unsubscribes. Changing
 * APP_SECRET makes every link sent before refuse.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../../lib/secret-box';

const PURPOSE = 'daily-email-unsubscribe';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UnsubscribeSigner {
  /** The token of the member `userId` of the company `tenantId`. */
  sign(tenantId: string, userId: string): string;
  /** The company and member a token names, or null when it was not made by `sign` with this APP_SECRET. */
  verify(token: string): { tenantId: string; userId: string } | null;
}

/** A signer whose key is derived from `appSecret`. */
export function unsubscribeSigner(appSecret: string): UnsubscribeSigner {
  const key = derivedKey(appSecret, PURPOSE);
  const mac = (tenantId: string, userId: string) => createHmac('sha256', key).update(`${tenantId}.${userId}`).digest();
  return {
    sign: (tenantId, userId) => `${tenantId}.${userId}.${mac(tenantId, userId).toString('base64url')}`,
    verify(token) {
      const [tenantId, userId, signature, ...rest] = token.trim().split('.');
      if (!tenantId || !userId || !signature || rest.length > 0 || !UUID.test(tenantId) || !UUID.test(userId)) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(tenantId.toLowerCase(), userId.toLowerCase());
      return given.length === expected.length && timingSafeEqual(given, expected) ? { tenantId: tenantId.toLowerCase(), userId: userId.toLowerCase() } : null;
    },
  };
}
