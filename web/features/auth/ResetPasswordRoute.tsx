/** /reset-password#{secret}: a new password from the emailed link; then sign in. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { Button } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { TextField } from '../../components/ui/TextField';
import { AuthRequestError } from './api/auth-request-error';
import { useResetPassword } from './api/password';
import { AuthCard } from './components/AuthCard';
import { newPasswordFields, passwordsMatch } from './new-password-form';

const resetForm = z.object(newPasswordFields).refine(...passwordsMatch);
type ResetForm = z.infer<typeof resetForm>;

const INVALID_LINK = 'This reset link is not valid or has expired or been used. Ask for a new one.';

/** The new-password screen. */
export function ResetPasswordRoute() {
  const token = useLocation().hash.slice(1);
  const navigate = useNavigate();
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetForm>({ resolver: zodResolver(resetForm), defaultValues: { password: '', confirmPassword: '' } });
  const onSubmit = handleSubmit(({ password }) =>
    reset.mutate(
      { token, newPassword: password },
      {
        onSuccess: () => {
          toast.success('Your password is changed. Please sign in.');
          navigate('/login', { replace: true });
        },
      },
    ),
  );
  const failure =
    reset.error instanceof AuthRequestError && /password/i.test(reset.error.message) ? reset.error.message : reset.error ? INVALID_LINK : undefined;
  return (
    <AuthCard title="Choose a new password">
      {!token ? (
        <FormAlert message={INVALID_LINK} />
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormAlert message={failure} />
          <TextField id="reset-password" label="New Password" type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
          <TextField
            id="reset-confirm-password"
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <Button type="submit" isBusy={reset.isPending} className="mt-2 w-full">
            Set New Password
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-base">
        <Link to="/forgot-password" className="-my-3 inline-flex min-h-11 items-center font-medium text-blue-700 underline-offset-2 hover:underline">
          Ask for a new link
        </Link>
      </p>
    </AuthCard>
  );
}
