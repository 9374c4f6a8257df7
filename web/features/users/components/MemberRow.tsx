/**
 * One member of the Users screen: '{email} - {role name}' ('Unknown' when the role is missing,
 * docs/product.md "Screens: Users"), their name and when they were last active, and the role
 * and Remove controls the signed-in person may use; the others are not shown.
 */
import { useId } from 'react';
import { UserMinus } from 'lucide-react';
import type { Role } from '../../../../common/contracts/session';
import type { TeamMember } from '../../../../common/contracts/team';
import { roleNames } from '../../../../common/permissions';
import { Button } from '../../../components/ui/Button';
import { formatDateTime } from '../../../lib/format';
import { memberActions } from '../member-actions';

interface MemberRowProps {
  member: TeamMember;
  /** The signed-in person's role and id. */
  viewer: { role: Role; userId: string };
  /** The company's number of owners (the last one cannot be demoted or removed). */
  owners: number;
  busy: boolean;
  onRoleChange: (role: Role) => void;
  onRemove: () => void;
}

/** Renders the member's row. */
export function MemberRow({ member, viewer, owners, busy, onRoleChange, onRemove }: MemberRowProps) {
  const id = useId();
  const roleName = member.role ? roleNames[member.role] : 'Unknown';
  const actions = memberActions(member, viewer, owners);
  const isYou = member.user_id === viewer.userId;
  return (
    <li className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 last:border-b-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">
          {member.email} - {roleName}
          {isYou && <span className="ml-2 text-sm font-normal text-slate-500">(you)</span>}
        </p>
        <p className="text-sm text-slate-600">
          {member.name !== member.email && <span className="mr-2 break-words">{member.name}</span>}
          {member.last_active_at ? `Last active ${formatDateTime(member.last_active_at)}` : 'Not active yet'}
        </p>
        {actions.note && <p className="text-sm text-slate-500">{actions.note}</p>}
      </div>
      {(actions.canChangeRole || actions.canRemove) && (
        <div className="flex items-end gap-2">
          {actions.canChangeRole && member.role && (
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-role`} className="sr-only">
                Role of {member.email}
              </label>
              <select
                id={`${id}-role`}
                value={member.role}
                disabled={busy}
                onChange={(e) => onRoleChange(e.target.value as Role)}
                className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900"
              >
                {actions.roleChoices.map((r) => (
                  <option key={r} value={r}>
                    {roleNames[r]}
                  </option>
                ))}
              </select>
            </div>
          )}
          {actions.canRemove && (
            <Button variant="secondary" onClick={onRemove} disabled={busy} aria-label={`Remove ${member.email}`}>
              <UserMinus className="size-5" aria-hidden="true" />
              Remove
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
