/**
 * The server's check of a new password (docs/decisions/014-origins-sessions-accounts.md): the
 * shared rule of common/contracts/password.ts, plus a refusal of common passwords, looked up
 * case-insensitively in the ~49,000 most common passwords of @zxcvbn-ts/language-common (a
 * maintained list from public password leaks; ~90 ms and ~10 MB to load, once per process).
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { newPassword, PASSWORD_MESSAGES } from '../../../common/contracts/password';

const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);

/** Why a new password is refused: better-auth-style error code and the message the user sees. */
export interface PasswordProblem {
  code: 'PASSWORD_TOO_SHORT' | 'PASSWORD_BLANK' | 'PASSWORD_TOO_COMMON';
  message: string;
}

/**
 * What is wrong with `password` as a new password, or null when it is acceptable. A value that is
 * not a string is left to better-auth's own body validation (null).
 */
export function passwordProblem(password: unknown): PasswordProblem | null {
  if (typeof password !== 'string') return null;
  const parsed = newPassword.safeParse(password);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { code: issue.code === 'too_small' ? 'PASSWORD_TOO_SHORT' : 'PASSWORD_BLANK', message: issue.message };
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return { code: 'PASSWORD_TOO_COMMON', message: PASSWORD_MESSAGES.tooCommon };
  return null;
}
