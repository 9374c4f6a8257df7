/** One open invitation of the Users screen: email, role, expiry, and Resend and Revoke for admins. */
import type { PendingInvitation } from '../../../../common/contracts/team';
import { roleNames } from '../../../../common/permissions';
import { Button } from '../../../components/ui/Button';
import { formatDateTime } from '../../../lib/format';

interface InvitationRowProps {
  invitation: PendingInvitation;
  /** False hides Resend and Revoke (members). */
  canManage: boolean;
  busy: boolean;
  onResend: () => void;
  onRevoke: () => void;
}

/** Renders the invitation's row. */
export function InvitationRow({ invitation, canManage, busy, onResend, onRevoke }: InvitationRowProps) {
  return (
    <li className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 last:border-b-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">
          {invitation.email} - {roleNames[invitation.role]}
        </p>
        <p className="text-sm text-slate-600">
          Invited by {invitation.invited_by}; expires {formatDateTime(invitation.expires_at)}
        </p>
      </div>
      {canManage && (
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onResend} disabled={busy} aria-label={`Resend the invitation to ${invitation.email}`}>
            Resend
          </Button>
          <Button variant="secondary" onClick={onRevoke} disabled={busy} aria-label={`Revoke the invitation to ${invitation.email}`}>
            Revoke
          </Button>
        </div>
      )}
    </li>
  );
}
