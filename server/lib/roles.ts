/**
 * Role checks against the matrix of common/permissions.ts (docs/product.md "Roles"): members
 * manage stock; admins also manage items, storage, properties and users; owners also manage
 * billing and ownership.
 */
import type { Role } from '../../common/contracts/session';
import { isAtLeast } from '../../common/permissions';
import { AppError } from './errors';

/** The refusal of an action the caller's role does not allow (403). */
export const ROLE_REFUSED_MESSAGE = 'Your role does not allow this action. Ask an administrator of your company.';

/** @throws AppError FORBIDDEN unless `role` is at least `least`. */
export function requireRole(who: { role: Role }, least: Role): void {
  if (!isAtLeast(who.role, least)) throw new AppError('FORBIDDEN', ROLE_REFUSED_MESSAGE);
}
