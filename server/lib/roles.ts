/**
 * Role checks (docs/product.md "Roles"): members manage stock; admins also manage items, storage,
 * properties, imports and users; owners also manage billing.
 */
import type { Role } from '../../common/contracts/session';
import { AppError } from './errors';

const rank: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** @throws AppError FORBIDDEN unless `role` is at least `least`. */
export function requireRole(who: { role: Role }, least: Role): void {
  if (rank[who.role] < rank[least]) {
    throw new AppError('FORBIDDEN', 'Your role does not allow this action. Ask an administrator of your company.');
  }
}
