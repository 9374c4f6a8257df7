/**
 * API key secrets (docs/decisions/049-api-keys.md): a key is `imk_` and 32 random bytes in
 * base64url (256 bits, so its plain SHA-256 is a safe stored form: nothing to guess from it, no
 * salt or slow hash needed); only the hash is stored, and the first characters as a visible prefix.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '../../../common/contracts/api-keys';

/** Random bytes of a key's secret. */
const SECRET_BYTES = 32;

/** Characters of a key shown to recognise it: the prefix and 6 of the secret ("imk_AbC12x"). */
const VISIBLE_CHARACTERS = API_KEY_PREFIX.length + 6;

/** A key as written: `imk_` then 43 base64url characters. */
const KEY_FORMAT = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

/** SHA-256 (hex, 64 characters) of a whole key, as stored in `api_keys.key_hash`. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new key: the whole key (shown once), its hash and its visible prefix. */
export function newKey(): { key: string; hash: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { key, hash: keyHash(key), prefix: key.slice(0, VISIBLE_CHARACTERS) };
}

/**
 * A new key id: a random UUID whose version digit is 8 (RFC 9562's custom version), where people's
 * ids are version 4. The ledger's trigger (migration 0043) tells a key's movements by it, and the
 * table's check `api_keys_id_version` holds every key id to it.
 */
export function newKeyId(): string {
  const id = randomUUID();
  return `${id.slice(0, 14)}8${id.slice(15)}`;
}

/** True for a key id (see newKeyId). */
export function isKeyId(id: string): boolean {
  return id.length === 36 && id[14] === '8';
}

/**
 * The key of an `Authorization` header: the token after `Bearer` (the scheme in any case,
 * RFC 9110), undefined when the header is absent or of another scheme, and null when it is a
 * Bearer header whose token cannot be a key (it is refused without a lookup).
 */
export function bearerKey(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(header);
  if (!match) return /^Bearer(\s|$)/i.test(header) ? null : undefined;
  return KEY_FORMAT.test(match[1]!) ? match[1]! : null;
}

/** True when the hex hashes `a` and `b` are equal, compared in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
