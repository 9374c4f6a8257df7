/** Sign-up with email and password (better-auth POST /api/auth/sign-up/email). */
import { useMutation } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { runAuthCall } from './auth-request-error';

export interface SignUpDetails {
  email: string;
  password: string;
}

/** Where the link in the confirmation email lands once the address is confirmed. */
export const EMAIL_CONFIRMED_CALLBACK = '/login?verified=1';

/**
 * Creates the account; the server emails a confirmation link and does not sign the user in.
 * @throws AuthRequestError, e.g. code USER_ALREADY_EXISTS for a taken email.
 */
export function signUp({ email, password }: SignUpDetails): Promise<void> {
  return runAuthCall(() => authClient.signUp.email({ email, password, name: email, callbackURL: EMAIL_CONFIRMED_CALLBACK }));
}

/** Sign-up mutation. */
export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
