/** /signup: account creation with email confirmation (password rule: decision 014). */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { Button } from '../../components/ui/Button';
import { TextField } from '../../components/ui/TextField';
import { useSignUp } from './api/sign-up';
import { signUpErrorMessage } from './auth-messages';
import { AuthCard } from './components/AuthCard';
import { newPasswordFields, passwordsMatch } from './new-password-form';

// Email presence and format are left to the browser (required, type=email). The password rule is
// the server's; only its common-password check is left to the server (its message is shown).
const signUpForm = z
  .object({ email: z.string().trim(), ...newPasswordFields })
  .refine(...passwordsMatch);
type SignUpForm = z.infer<typeof signUpForm>;

/** The sign-up screen. */
export function SignupRoute() {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpForm>({
    resolver: zodResolver(signUpForm),
    defaultValues: { email: '', password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ email, password }) => {
    signUp.mutate(
      { email, password },
      {
        onSuccess: () => {
          toast.success('Account created successfully! Please sign in.');
          navigate('/login');
        },
        onError: (error) => toast.error(signUpErrorMessage(error)),
      },
    );
  });

  return (
    <AuthCard title="Create your account">
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField id="signup-email" label="Email" type="email" autoComplete="email" required {...register('email')} />
        <TextField
          id="signup-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField
          id="signup-confirm-password"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <div className="mt-2 flex flex-col gap-3">
          <Button type="submit" isBusy={signUp.isPending} className="w-full">
            Create Account
          </Button>
          <Button variant="secondary" className="w-full" onClick={() => navigate('/login')}>
            Back to Login
          </Button>
        </div>
      </form>
      <p className="mt-6 text-center text-base text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-blue-700 underline-offset-2 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
