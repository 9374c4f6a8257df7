/**
 * The password and confirmation requests of better-auth (docs/decisions/029-team-and-invitations.md):
 * forgotten password, reset by the emailed link, change while signed in, and a confirmation email
 * sent again.
 */
import { useMutation } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { runAuthCall } from './auth-request-error';
import { EMAIL_CONFIRMED_CALLBACK } from './sign-up';

/** Emails a reset link when the address has an account; answers the same either way. @throws AuthRequestError */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (email: string) => runAuthCall(() => authClient.requestPasswordReset({ email })) });
}

/** Sets a new password with the link's secret; every session ends. @throws AuthRequestError, e.g. an expired or used link */
export function useResetPassword() {
  return useMutation({
    mutationFn: ({ token, newPassword }: { token: string; newPassword: string }) => runAuthCall(() => authClient.resetPassword({ token, newPassword })),
  });
}

/** Changes the signed-in user's password; their other sessions end. @throws AuthRequestError, e.g. a wrong current password */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) =>
      runAuthCall(() => authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true })),
  });
}

/** Sends the confirmation email again (limited per address by the server). @throws AuthRequestError */
export function useResendConfirmation() {
  return useMutation({ mutationFn: (email: string) => runAuthCall(() => authClient.sendVerificationEmail({ email, callbackURL: EMAIL_CONFIRMED_CALLBACK })) });
}
