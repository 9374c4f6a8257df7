/**
 * /account: the signed-in user's email, Change password (their other sessions end) and the
 * morning email with the company's time zone.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { PageHeader } from '../../components/ui/PageHeader';
import { TextField } from '../../components/ui/TextField';
import { useSignedInUser } from '../../lib/use-auth-state';
import { useChangePassword } from './api/password';
import { MorningEmailCard } from './components/MorningEmailCard';
import { newPasswordFields, passwordsMatch } from './new-password-form';

const changeForm = z
  .object({ currentPassword: z.string().min(1, 'Enter your current password'), ...newPasswordFields })
  .refine(...passwordsMatch);
type ChangeForm = z.infer<typeof changeForm>;

const empty: ChangeForm = { currentPassword: '', password: '', confirmPassword: '' };

/** The account screen. */
export function AccountRoute() {
  const user = useSignedInUser();
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangeForm>({ resolver: zodResolver(changeForm), defaultValues: empty });
  const onSubmit = handleSubmit(({ currentPassword, password }) =>
    change.mutate(
      { currentPassword, newPassword: password },
      {
        onSuccess: () => {
          toast.success('Password changed. Your other devices are signed out.');
          reset(empty);
        },
        onError: (error) => toast.error(error.message || 'Failed to change the password. Please try again.'),
      },
    ),
  );
  return (
    <>
      <PageHeader title="Account" subtitle={`Signed in as ${user.email}`} />
      <Card className="max-w-lg p-4 sm:p-6">
        <h2 className="mb-4 text-lg font-semibold text-slate-900">Change password</h2>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <TextField
            id="account-current-password"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...register('currentPassword')}
          />
          <TextField id="account-new-password" label="New Password" type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
          <TextField
            id="account-confirm-password"
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <Button type="submit" isBusy={change.isPending} className="self-start">
            Change Password
          </Button>
        </form>
      </Card>
      <div className="mt-6">
        <MorningEmailCard />
      </div>
    </>
  );
}
