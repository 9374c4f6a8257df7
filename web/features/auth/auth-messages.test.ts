import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '../../../common/contracts/password';
import { AuthRequestError } from './api/auth-request-error';
import { isEmailNotVerified, signInErrorMessage, signUpErrorMessage } from './auth-messages';

describe('sign-up failure texts', () => {
  it('says the account exists for the server\'s USER_ALREADY_EXISTS, whatever its words', () => {
    expect(signUpErrorMessage(new AuthRequestError('USER_ALREADY_EXISTS', 'User already registered', 422))).toBe(
      'An account with this email already exists',
    );
    expect(signUpErrorMessage(new AuthRequestError('USER_ALREADY_EXISTS', 'User already exists. Use another email.', 422))).toBe(
      'An account with this email already exists',
    );
  });

  it('shows a password problem in the server\'s words, anything else generically', () => {
    expect(signUpErrorMessage(new AuthRequestError('VALIDATION', PASSWORD_MESSAGES.tooShort, 400))).toBe(PASSWORD_MESSAGES.tooShort);
    expect(signUpErrorMessage(new AuthRequestError('VALIDATION', PASSWORD_MESSAGES.tooCommon, 400))).toBe(PASSWORD_MESSAGES.tooCommon);
    expect(signUpErrorMessage(new AuthRequestError('VALIDATION', PASSWORD_MESSAGES.blank, 400))).toBe(PASSWORD_MESSAGES.blank);
    expect(signUpErrorMessage(new AuthRequestError('NETWORK_ERROR', 'Network error', 0))).toBe(
      'Failed to create account. Please try again.',
    );
    expect(signUpErrorMessage(new Error('boom'))).toBe('Failed to create account. Please try again.');
  });
});

describe('sign-in failures', () => {
  it('recognises an unconfirmed email and otherwise shows the server message', () => {
    const unverified = new AuthRequestError('EMAIL_NOT_VERIFIED', 'Email not verified', 403);
    expect(isEmailNotVerified(unverified)).toBe(true);
    const wrong = new AuthRequestError('UNAUTHENTICATED', 'Invalid email or password', 401);
    expect(isEmailNotVerified(wrong)).toBe(false);
    expect(signInErrorMessage(wrong)).toBe('Invalid email or password');
  });
});
