/**
 * What the signed-in person may do to a member on the Users screen: the matrix of
 * common/permissions.ts and the rules the server applies to the person acted on
 * (server/modules/team/service.ts): an owner is changed or removed only by an owner, owner is
 * offered only by an owner, and the last owner is neither demoted nor removed.
 */
import { roles, type Role } from '../../../common/contracts/session';
import type { TeamMember } from '../../../common/contracts/team';
import { may } from '../../../common/permissions';

/** What `viewer` may do to `member`, and why not (common/permissions.ts; the server decides the same). */
export function memberActions(member: TeamMember, viewer: { role: Role; userId: string }, owners: number) {
  const isOwner = member.role === 'owner';
  const lastOwner = isOwner && owners <= 1;
  const manages = may(viewer.role, 'users') && (!isOwner || may(viewer.role, 'ownership'));
  return {
    canChangeRole: manages && !lastOwner,
    canRemove: manages && !lastOwner,
    /** The roles offered: owner only to an owner. */
    roleChoices: roles.filter((r) => r !== 'owner' || may(viewer.role, 'ownership')),
    note: lastOwner && manages ? 'The last owner cannot be removed or demoted.' : undefined,
  };
}

