/** Invite User: email and role (Admin or Member); the invitee gets an email with a link. */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { inviteBody, MAX_EMAIL_LENGTH, type InviteBody } from '../../../../common/contracts/team';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { useInvite } from '../api/team';

const empty = { email: '', role: 'member' } as const;

function InviteForm({ onClose }: { onClose: () => void }) {
  const id = useId();
  const invite = useInvite();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string; role: 'admin' | 'member' }, unknown, InviteBody>({ resolver: zodResolver(inviteBody), defaultValues: empty });
  const onSubmit = handleSubmit((body) => invite.mutate(body, { onSuccess: onClose }));
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="off"
        maxLength={MAX_EMAIL_LENGTH}
        placeholder="name@example.com"
        error={errors.email?.message}
        {...register('email')}
      />
      <SelectField id={`${id}-role`} label="Role" error={errors.role?.message} {...register('role')}>
        <option value="member">Member — changes stock</option>
        <option value="admin">Admin — also manages items, garages, units and users</option>
      </SelectField>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={invite.isPending}>
          {invite.isPending ? 'Sending...' : 'Send Invitation'}
        </Button>
      </DialogActions>
    </form>
  );
}

/** The Invite User dialog; closes once the invitation is sent. */
export function InviteUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Invite User" description="They get an email with a link to join your company. The link is valid for 7 days.">
      {open && <InviteForm onClose={onClose} />}
    </Dialog>
  );
}
