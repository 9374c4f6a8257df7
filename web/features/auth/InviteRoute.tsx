/**
 * /invite#{secret}: the page of an invitation link (docs/decisions/029-team-and-invitations.md).
 * It shows the company and who invited; a new person creates the account there (the invited
 * email fixed, password and confirm with the sign-up rules) and lands on the company's
 * dashboard; a person with an account signs in on the page, or, signed in already with that
 * email, accepts with one button. A link that is not (or no longer) valid gets a page saying so.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation } from 'react-router';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { requiredText } from '../../../common/contracts/fields';
import type { InvitationPreview } from '../../../common/contracts/team';
import { roleNames } from '../../../common/permissions';
import { Button } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { TextField } from '../../components/ui/TextField';
import { actionErrorMessage, ApiError } from '../../lib/api-error';
import { useAuthState } from '../../lib/use-auth-state';
import { useAcceptInvitation, useInvitationPreview, useJoinInvitation } from './api/invitation';
import { useSignIn } from './api/sign-in';
import { signInErrorMessage } from './auth-messages';
import { AuthCard } from './components/AuthCard';
import { newPasswordFields, passwordsMatch } from './new-password-form';

const joinForm = z
  .object({ name: requiredText('Name', 'Name is required'), ...newPasswordFields })
  .refine(...passwordsMatch);
type JoinForm = z.infer<typeof joinForm>;

function JoinNew({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const join = useJoinInvitation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<JoinForm>({ resolver: zodResolver(joinForm), defaultValues: { name: '', password: '', confirmPassword: '' } });
  const onSubmit = handleSubmit(({ name, password }) =>
    join.mutate(
      { token, name, password },
      { onError: (error) => toast.error(actionErrorMessage(error, 'Failed to create account. Please try again.')) },
    ),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField id="invite-email" label="Email" type="email" value={invitation.email} readOnly disabled />
      <TextField id="invite-name" label="Your name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField id="invite-password" label="Password" type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
      <TextField
        id="invite-confirm-password"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Button type="submit" isBusy={join.isPending} className="mt-2 w-full">
        Create Account and Join
      </Button>
    </form>
  );
}

function SignInToAccept({ invitation }: { invitation: InvitationPreview }) {
  const signIn = useSignIn();
  const { register, handleSubmit } = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const onSubmit = handleSubmit(({ password }) =>
    signIn.mutate({ email: invitation.email, password }, { onError: (error) => toast.error(signInErrorMessage(error)) }),
  );
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-slate-700">You already have an account. Sign in to accept.</p>
      <TextField id="invite-email" label="Email" type="email" value={invitation.email} readOnly disabled />
      <TextField id="invite-password" label="Password" type="password" autoComplete="current-password" required {...register('password')} />
      <Button type="submit" isBusy={signIn.isPending} className="mt-2 w-full">
        Sign in
      </Button>
    </form>
  );
}

function AcceptSignedIn({ token, invitation, signedInAs }: { token: string; invitation: InvitationPreview; signedInAs: string }) {
  const accept = useAcceptInvitation();
  if (signedInAs.toLowerCase() !== invitation.email) {
    return (
      <div className="flex flex-col gap-4">
        <FormAlert message={`You are signed in as ${signedInAs}, but this invitation was sent to ${invitation.email}.`} />
        <Link to="/signout" className="text-center font-medium text-blue-700 underline-offset-2 hover:underline">
          Sign out to use another account
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {accept.error && <FormAlert message={actionErrorMessage(accept.error, 'Failed to accept the invitation. Please try again.')} />}
      <Button
        className="w-full"
        isBusy={accept.isPending}
        onClick={() => accept.mutate(token)}
      >
        Accept Invitation
      </Button>
    </div>
  );
}

/** The invitation page. */
export function InviteRoute() {
  const token = useLocation().hash.slice(1);
  const auth = useAuthState();
  const preview = useInvitationPreview(token);

  if (preview.isPending || auth.status === 'loading') return <PageSpinner />;
  if (preview.isError) {
    const message =
      preview.error instanceof ApiError && (preview.error.status === 400 || preview.error.status === 404 || preview.error.status === 409)
        ? preview.error.message
        : 'The invitation could not be loaded. Please try again.';
    return (
      <AuthCard title="Invitation">
        <div className="flex flex-col gap-4">
          <FormAlert message={message} />
          <Link to="/login" className="text-center font-medium text-blue-700 underline-offset-2 hover:underline">
            Go to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }
  const invitation = preview.data;
  return (
    <AuthCard title={`Join ${invitation.company_name}`}>
      <p className="mb-6 text-center text-slate-700">
        {invitation.inviter} invited you to join <strong>{invitation.company_name}</strong> on Inventory Manager as{' '}
        {roleNames[invitation.role]}.
      </p>
      {auth.status === 'signed-in' ? (
        <AcceptSignedIn token={token} invitation={invitation} signedInAs={auth.user.email} />
      ) : invitation.has_account ? (
        <SignInToAccept invitation={invitation} />
      ) : (
        <JoinNew token={token} invitation={invitation} />
      )}
    </AuthCard>
  );
}
