/**
 * The rule of a new password that the sign-up form and the server both check
 * (docs/decisions/014-origins-sessions-accounts.md): at least PASSWORD_MIN_LENGTH characters, and
 * not blank or spaces only. The server also refuses common passwords (a list too large to ship to
 * the browser), with PASSWORD_MESSAGES.tooCommon, which the form shows as the server words it.
 * Every message names the password, so the sign-up screen shows it as is.
 */
import { z } from 'zod';

/** Fewest characters of a password (UTF-16 code units, what JavaScript's length counts). */
export const PASSWORD_MIN_LENGTH = 6;

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  blank: 'Password cannot be blank or only spaces',
  tooCommon: 'Password is too common. Choose one that is harder to guess.',
} as const;

/** A new password: long enough and not blank. */
export const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
  .refine((password) => password.trim() !== '', PASSWORD_MESSAGES.blank);
