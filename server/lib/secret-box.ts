/**
 * Secrets kept in the database encrypted (docs/ARCHITECTURE.md "The parts"; the listings
 * provider's client secret and token): AES-256-GCM with a key derived from APP_SECRET by HKDF
 * (SHA-256), one derived key per purpose, a random 12-byte nonce per value. A sealed value is the
 * text `v1.<nonce>.<tag>.<ciphertext>`, each part base64url. Changing APP_SECRET makes stored
 * secrets unreadable: `open` then throws and the company reconnects.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface SecretBox {
  /** Encrypts `plain` (UTF-8) into a sealed text. */
  seal(plain: string): string;
  /**
   * Decrypts a text made by `seal` with the same APP_SECRET and purpose.
   * @throws Error when the value is not a sealed text or was sealed with another key (tampered, or APP_SECRET changed).
   */
  open(sealed: string): string;
}

/**
 * The 32-byte key of `purpose` derived from `appSecret` by HKDF (SHA-256): the one derivation of
 * every key the server makes from APP_SECRET (sealed secrets, signed email links).
 */
export function derivedKey(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'stock-keeper secret box', purpose, 32));
}

/** A box whose key is derived from `appSecret` for `purpose` (e.g. 'provider-credentials'). */
export function secretBox(appSecret: string, purpose: string): SecretBox {
  const key = derivedKey(appSecret, purpose);
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', nonce, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, nonce, tag, body] = sealed.split('.');
      if (version !== 'v1' || !nonce || !tag || body === undefined) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
