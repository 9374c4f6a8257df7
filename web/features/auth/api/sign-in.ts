/** Sign-in with email and password (better-auth POST /api/auth/sign-in/email). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { runAuthCall } from './auth-request-error';

export interface SignInCredentials {
  email: string;
  password: string;
}

/**
 * Signs in; the server sets the session cookie.
 * @throws AuthRequestError, e.g. code EMAIL_NOT_VERIFIED (403) before the email is confirmed.
 */
export function signIn({ email, password }: SignInCredentials): Promise<void> {
  return runAuthCall(() => authClient.signIn.email({ email, password }));
}

/**
 * Sign-in mutation. On success it drops cached data of any earlier user and waits until the
 * session is re-read, so the guards see the signed-in user before the next navigation.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  const { refetch } = authClient.useSession();
  return useMutation({
    mutationFn: async (credentials: SignInCredentials) => {
      await signIn(credentials);
      queryClient.clear();
      await refetch();
    },
  });
}
