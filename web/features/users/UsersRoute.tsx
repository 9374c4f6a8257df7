/**
 * /users: the company's members and open invitations (docs/product.md "Screens: Users"). Everyone
 * sees the list; admins and owners invite, resend, revoke, change roles and remove, and the
 * controls a person may not use are not shown (Invite User is disabled with the reason).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { KeyRound, UserPlus, Users } from 'lucide-react';
import type { Role } from '../../../common/contracts/session';
import type { PendingInvitation, TeamMember } from '../../../common/contracts/team';
import { roleNames } from '../../../common/permissions';
import { OnlineOnly } from '../../components/OnlineOnly';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { Button, buttonClasses } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { PageHeader } from '../../components/ui/PageHeader';
import { Spinner } from '../../components/ui/Spinner';
import { useMe } from '../../lib/queries/get-me';
import { usePermission } from '../../lib/use-permission';
import { useChangeRole, useRemoveMember, useResendInvitation, useRevokeInvitation, useTeam } from './api/team';
import { InvitationRow } from './components/InvitationRow';
import { InviteUserDialog } from './components/InviteUserDialog';
import { MemberRow } from './components/MemberRow';

/** The destructive or far-reaching change waiting for confirmation. */
type Pending =
  | { kind: 'remove'; member: TeamMember }
  | { kind: 'role'; member: TeamMember; role: Role }
  | { kind: 'revoke'; invitation: PendingInvitation }
  | null;

function confirmation(pending: NonNullable<Pending>): { title: string; message: string; label: string } {
  switch (pending.kind) {
    case 'remove':
      return { title: 'Remove User', message: `Remove ${pending.member.email} from your company? They lose access at once, on every device.`, label: 'Remove' };
    case 'role':
      return {
        title: 'Change Role',
        message: `Make ${pending.member.email} ${roleNames[pending.role]}? It applies to their next action.`,
        label: 'Change Role',
      };
    case 'revoke':
      return { title: 'Revoke Invitation', message: `Revoke the invitation to ${pending.invitation.email}? Its link stops working.`, label: 'Revoke' };
  }
}

function UsersScreen() {
  const team = useTeam();
  const me = useMe().data;
  const inviting = usePermission('users');
  const managingKeys = usePermission('apiKeys');
  const [inviteOpen, setInviteOpen] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const busy = changeRole.isPending || remove.isPending || resend.isPending || revoke.isPending;

  const confirm = () => {
    if (!pending) return;
    const done = { onSettled: () => setPending(null) };
    if (pending.kind === 'remove') remove.mutate({ userId: pending.member.user_id, email: pending.member.email }, done);
    else if (pending.kind === 'role') changeRole.mutate({ userId: pending.member.user_id, email: pending.member.email, role: pending.role }, done);
    else revoke.mutate(pending.invitation, done);
  };

  let content;
  if (!team.data || !me?.role) {
    content = team.isError ? (
      <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
        Failed to load users{' '}
        <Button variant="ghost" onClick={() => void team.refetch()}>
          Try again
        </Button>
      </p>
    ) : (
      <p className="flex items-center gap-2 text-slate-600">
        <Spinner label="Loading users" /> Loading users...
      </p>
    );
  } else {
    const viewer = { role: me.role, userId: me.user.id };
    const owners = team.data.members.filter((m) => m.role === 'owner').length;
    content = (
      <div className="flex flex-col gap-6">
        <section aria-labelledby="members-heading" className="rounded-xl border border-slate-200 bg-white">
          <h2 id="members-heading" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
            Members
          </h2>
          {team.data.members.length === 0 ? (
            <p className="px-4 py-6 text-slate-600">No users found</p>
          ) : (
            <ul>
              {team.data.members.map((member) => (
                <MemberRow
                  key={member.user_id}
                  member={member}
                  viewer={viewer}
                  owners={owners}
                  busy={busy}
                  onRoleChange={(role) => setPending({ kind: 'role', member, role })}
                  onRemove={() => setPending({ kind: 'remove', member })}
                />
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="invitations-heading" className="rounded-xl border border-slate-200 bg-white">
          <h2 id="invitations-heading" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
            Pending invitations
          </h2>
          {team.data.invitations.length === 0 ? (
            <p className="px-4 py-6 text-slate-600">No pending invitations</p>
          ) : (
            <ul>
              {team.data.invitations.map((invitation) => (
                <InvitationRow
                  key={invitation.id}
                  invitation={invitation}
                  canManage={inviting.allowed}
                  busy={busy}
                  onResend={() => resend.mutate(invitation)}
                  onRevoke={() => setPending({ kind: 'revoke', invitation })}
                />
              ))}
            </ul>
          )}
        </section>
      </div>
    );
  }

  const asked = pending ? confirmation(pending) : null;
  return (
    <>
      <PageHeader
        title="Users"
        subtitle="The people of your company and what they may do"
        actions={
          <div className="flex flex-col items-start gap-1 sm:items-end">
            <div className="flex flex-wrap gap-2">
              {managingKeys.allowed && (
                <Link to="/api-keys" className={buttonClasses('secondary')}>
                  <KeyRound className="size-5" aria-hidden="true" />
                  API keys
                </Link>
              )}
              <Button onClick={() => setInviteOpen(true)} disabled={!inviting.allowed} aria-describedby={inviting.reason ? 'invite-reason' : undefined}>
                <UserPlus className="size-5" aria-hidden="true" />
                Invite User
              </Button>
            </div>
            {inviting.reason && (
              <p id="invite-reason" className="text-sm text-slate-600">
                {inviting.reason}
              </p>
            )}
          </div>
        }
      />
      {content}
      {team.data && team.data.members.length === 1 && team.data.invitations.length === 0 && inviting.allowed && (
        <p className="mt-4 flex items-center gap-2 text-slate-600">
          <Users className="size-5" aria-hidden="true" /> Invite the people who count and restock with you.
        </p>
      )}
      <InviteUserDialog open={inviteOpen} onClose={() => setInviteOpen(false)} />
      <ConfirmDialog
        open={asked !== null}
        title={asked?.title ?? ''}
        message={asked?.message ?? ''}
        confirmLabel={asked?.label}
        isBusy={busy}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </>
  );
}

/** The Users screen behind the expired-trial gate; offline, the sentence that it needs a connection. */
export function UsersRoute() {
  return (
    <OnlineOnly screen="users">
      <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing users.">
        <UsersScreen />
      </SubscriptionGate>
    </OnlineOnly>
  );
}
