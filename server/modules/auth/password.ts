/**
 * The server's check of a new password (docs/decisions/014-origins-sessions-accounts.md): the
 * shared rule of common/contracts/password.ts, plus a refusal of common passwords, looked up
 * case-insensitively in the ~49,000 most common passwords of @zxcvbn-ts/language-common (a
 * maintained list from public password leaks; ~90 ms and ~10 MB to load, once per process).
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { newPassword, PASSWORD_MESSAGES } from '../../../common/contracts/password';

const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);

/**
 * Why `password` is refused as a new password (the message the user sees), or null when it is
 * acceptable. A value that is not a string is left to better-auth's own body validation (null).
 */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return null;
  const parsed = newPassword.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]!.message;
  return COMMON_PASSWORDS.has(password.toLowerCase()) ? PASSWORD_MESSAGES.tooCommon : null;
}
