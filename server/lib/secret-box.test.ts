import { describe, expect, it } from 'vitest';
import { secretBox } from './secret-box';

describe('secret box', () => {
  const secret = 'a'.repeat(32);
  it('opens what it sealed, never shows the plain text, and refuses another key or a changed value', () => {
    const box = secretBox(secret, 'provider-credentials');
    const sealed = box.seal('client-secret-ü');
    expect(sealed).not.toContain('client-secret');
    expect(box.seal('client-secret-ü')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('client-secret-ü');
    expect(() => secretBox('b'.repeat(32), 'provider-credentials').open(sealed)).toThrow();
    expect(() => secretBox(secret, 'other purpose').open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => box.open('plain text')).toThrow();
  });
});
