import { describe, expect, it } from 'vitest';
import { newPassword, PASSWORD_MESSAGES } from './password';

describe('new password rule', () => {
  it('needs 6 characters that are not all blank', () => {
    expect(newPassword.safeParse('12345').error?.issues[0]?.message).toBe('Password must be at least 6 characters');
    expect(newPassword.safeParse('      ').error?.issues[0]?.message).toBe(PASSWORD_MESSAGES.blank);
    expect(newPassword.safeParse(' \t\n   ').error?.issues[0]?.message).toBe(PASSWORD_MESSAGES.blank);
    expect(newPassword.safeParse(' linen closet ').success).toBe(true);
  });
});
