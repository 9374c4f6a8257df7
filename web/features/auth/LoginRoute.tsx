/** /login: sign-in with email and password. */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import toast from 'react-hot-toast';
import { Button } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { TextField } from '../../components/ui/TextField';
import { useSignIn, type SignInCredentials } from './api/sign-in';
import { EMAIL_NOT_VERIFIED_MESSAGE, isEmailNotVerified, signInErrorMessage } from './auth-messages';
import { AuthCard } from './components/AuthCard';

/** The note above the form when the user arrives from the link in the confirmation email. */
function VerificationNote({ searchParams }: { searchParams: URLSearchParams }) {
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
  const { register, handleSubmit } = useForm<SignInCredentials>({ defaultValues: { email: '', password: '' } });

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
        {needsConfirmation && <FormAlert message={EMAIL_NOT_VERIFIED_MESSAGE} />}
        <TextField id="login-email" label="Email" type="email" autoComplete="email" required {...register('email')} />
        <TextField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...register('password')}
        />
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
