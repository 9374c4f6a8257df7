/** The texts the sign-in and sign-up screens show for failures. */
import { AuthRequestError } from './api/auth-request-error';

export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Please confirm your email address before signing in. Check your inbox for the confirmation link.';

/** True when sign-in failed only because the email address is not confirmed yet. */
export function isEmailNotVerified(error: unknown): boolean {
  return error instanceof AuthRequestError && error.code === 'EMAIL_NOT_VERIFIED';
}

/** Sign-in failure: the server's message. */
export function signInErrorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Failed to sign in. Please try again.';
}

/**
 * Sign-up failure: an existing account, a password problem in the server's words,
 * or a generic text.
 */
export function signUpErrorMessage(error: unknown): string {
  if (!(error instanceof AuthRequestError)) return 'Failed to create account. Please try again.';
  if (error.code === 'USER_ALREADY_EXISTS' || error.message.includes('User already registered')) {
    return 'An account with this email already exists';
  }
  if (/password/i.test(error.message)) return error.message;
  return 'Failed to create account. Please try again.';
}
