/**
 * What the signed-in person may do, from their role (GET /api/me) and the matrix of
 * common/permissions.ts: screens hide or disable an action they may not take and say why,
 * instead of offering a button the server would refuse.
 */
import { may, refusalReason, type Ability } from '../../common/permissions';
import { useMe } from './queries/get-me';

export interface Permission {
  /** True once the role is known and allows the action. */
  allowed: boolean;
  /** Why the action is not offered, once the role is known and does not allow it. */
  reason: string | undefined;
}

/** Whether the signed-in person may do `ability`; while the role loads, not allowed and no reason. */
export function usePermission(ability: Ability): Permission {
  const role = useMe().data?.role;
  if (role === undefined) return { allowed: false, reason: undefined };
  const allowed = may(role, ability);
  return { allowed, reason: allowed ? undefined : refusalReason(ability) };
}
