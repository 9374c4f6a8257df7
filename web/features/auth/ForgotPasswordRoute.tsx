/** /forgot-password: asks for a reset link; the answer never tells whether the address has an account. */
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { Button } from '../../components/ui/Button';
import { TextField } from '../../components/ui/TextField';
import { useRequestPasswordReset } from './api/password';
import { AuthCard } from './components/AuthCard';

/** The forgotten-password screen. */
export function ForgotPasswordRoute() {
  const request = useRequestPasswordReset();
  const { register, handleSubmit } = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const onSubmit = handleSubmit(({ email }) =>
    request.mutate(email.trim(), { onError: () => toast.error('Failed to send the reset link. Please try again.') }),
  );
  return (
    <AuthCard title="Reset your password">
      {request.isSuccess ? (
        <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
          If an account exists for {request.variables}, we sent it a link to choose a new password. The link is valid for 60 minutes.
        </p>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-4">
          <p className="text-slate-700">Enter the email of your account. We will send you a link to choose a new password.</p>
          <TextField id="forgot-email" label="Email" type="email" autoComplete="email" required {...register('email')} />
          <Button type="submit" isBusy={request.isPending} className="mt-2 w-full">
            Send Reset Link
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-base">
        <Link to="/login" className="-my-3 inline-flex min-h-11 items-center font-medium text-blue-700 underline-offset-2 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
