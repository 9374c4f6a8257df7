/**
 * Who may do what in a company: the one matrix of roles (docs/product.md "Roles",
 * docs/decisions/029-team-and-invitations.md). The server's routes declare their least role from
 * it (`config.access`, server/access.ts) and the web app hides or disables what the signed-in
 * person may not do, with `refusalReason` as the reason.
 *
 * - member: sees everything; changes stock (plus, minus, restock, Add Manually, counts, Undo).
 * - admin: also manages items, storage, properties, setup and users (invites, removes members
 *   and admins, changes a member's or an admin's role; never an owner's), the API keys and the
 *   webhooks.
 * - owner: also manages billing, changes any role and hands ownership over.
 */
import type { Role } from './contracts/session';

/** Roles from least to most: a role may do everything the roles before it may. */
export const roleOrder: readonly Role[] = ['member', 'admin', 'owner'];

/** The least role of each kind of action. */
export const leastRole = {
  /** Seeing the company's records, reports and team. */
  view: 'member',
  /** Plus, minus, restock, Add Manually, garage counts, removing a stock row, Undo. */
  stock: 'member',
  /** Creating, editing and deleting items. */
  items: 'admin',
  /** Creating, editing and deleting garages (storage). */
  storage: 'admin',
  /** Creating, editing and deleting units (properties). */
  properties: 'admin',
  /** The onboarding steps after the company: items, storage and properties at once. */
  setup: 'admin',
  /** Inviting, removing and changing the role of members and admins. */
  users: 'admin',
  /** Creating, listing and revoking the company's API keys (docs/product.md "API keys"). */
  apiKeys: 'admin',
  /** Managing the company's webhook endpoints and their deliveries (docs/product.md "Webhooks"). */
  webhooks: 'admin',
  /** Choosing the service level the pick lists bring for. */
  serviceLevel: 'admin',
  /** Making someone an owner, changing or removing an owner. */
  ownership: 'owner',
  /** Checkout and the customer portal. */
  billing: 'owner',
} as const satisfies Record<string, Role>;

export type Ability = keyof typeof leastRole;

/** True when `role` is at least `least`. */
export function isAtLeast(role: Role, least: Role): boolean {
  return roleOrder.indexOf(role) >= roleOrder.indexOf(least);
}

/** True when someone with `role` (null: no company yet) may do `ability`. */
export function may(role: Role | null | undefined, ability: Ability): boolean {
  return role != null && isAtLeast(role, leastRole[ability]);
}

/** How a role is named on screen. */
export const roleNames: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** The reason shown beside an action `ability` the person may not take. */
export function refusalReason(ability: Ability): string {
  return leastRole[ability] === 'owner' ? 'Only an owner of your company can do this.' : 'Only an admin or owner of your company can do this.';
}
