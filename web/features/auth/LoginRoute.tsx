/** /login: sign-in with email and password, Forgot password?, and the confirmation email sent again. */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import toast from 'react-hot-toast';
import { Button } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { TextField } from '../../components/ui/TextField';
import { useResendConfirmation } from './api/password';
import { useSignIn, type SignInCredentials } from './api/sign-in';
import { EMAIL_NOT_VERIFIED_MESSAGE, isEmailNotVerified, signInErrorMessage } from './auth-messages';
import { AuthCard } from './components/AuthCard';

/** The note above the form when the user arrives from the link in the confirmation email, or after a session ended elsewhere. */
function VerificationNote({ searchParams }: { searchParams: URLSearchParams }) {
  if (searchParams.get('ended') === '1') {
    return <FormAlert message="You have been signed out: your session ended, or your access to the company was removed. Sign in again to continue." />;
  }
  if (searchParams.get('verified') !== '1') return null;
  if (searchParams.has('error')) {
    return (
      <FormAlert message="This confirmation link is invalid or has expired. Sign in to receive a new one." />
    );
  }
  return (
    <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
      Your email address is confirmed. You can sign in now.
    </p>
  );
}

/** The sign-in screen. */
export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [needsConfirmation, setNeedsConfirmation] = useState(false);
  const resend = useResendConfirmation();
  const { register, handleSubmit, getValues } = useForm<SignInCredentials>({ defaultValues: { email: '', password: '' } });
  const resendConfirmation = () =>
    resend.mutate(getValues('email').trim(), {
      onSuccess: () => toast.success('Confirmation email sent. Check your inbox.'),
      onError: () => toast.error('Failed to send the confirmation email. Please try again.'),
    });

  const onSubmit = handleSubmit((credentials) => {
    setNeedsConfirmation(false);
    signIn.mutate(
      { email: credentials.email.trim(), password: credentials.password },
      {
        onSuccess: () => navigate('/', { replace: true }),
        onError: (error) => {
          // Not a passing failure: the user has to act on the email first, so it stays on screen.
          if (isEmailNotVerified(error)) setNeedsConfirmation(true);
          else toast.error(signInErrorMessage(error));
        },
      },
    );
  });

  return (
    <AuthCard title="Inventory Manager">
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <VerificationNote searchParams={searchParams} />
        {needsConfirmation && (
          <div className="flex flex-col gap-2">
            <FormAlert message={EMAIL_NOT_VERIFIED_MESSAGE} />
            <Button variant="secondary" isBusy={resend.isPending} onClick={resendConfirmation}>
              Resend confirmation email
            </Button>
          </div>
        )}
        <TextField id="login-email" label="Email" type="email" autoComplete="email" required {...register('email')} />
        <TextField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...register('password')}
        />
        <Link to="/forgot-password" className="-my-3 inline-flex min-h-11 items-center self-end text-sm font-medium text-blue-700 underline-offset-2 hover:underline">
          Forgot password?
        </Link>
        <Button type="submit" isBusy={signIn.isPending} className="mt-2 w-full">
          Sign in
        </Button>
      </form>
      <p className="mt-6 text-center text-base text-slate-600">
        Don&apos;t have an account?{' '}
        <Link to="/signup" className="font-medium text-blue-700 underline-offset-2 hover:underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
