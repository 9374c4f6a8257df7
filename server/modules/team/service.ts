/**
 * The team of a company: its members and their roles, and the invitations its admins send
 * (docs/product.md "Screens: Users", "Roles"; docs/decisions/029-team-and-invitations.md).
 *
 * Who may call each function is declared on its route (common/permissions.ts `users`); what
 * depends on the person acted on is checked here: only an owner changes or removes an owner or
 * makes someone owner (`ownership`), and a company always keeps an owner. Owners' rows are locked
 * before that check, so two owners demoting each other cannot leave the company without one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { addDays } from 'date-fns';
import { utc } from '@date-fns/utc';
import { and, asc, eq, sql } from 'drizzle-orm';
import { roles, type Role } from '../../../common/contracts/session';
import { INVITATION_DAYS, invitedRoles, type InviteBody, type PendingInvitation, type TeamMember, type TeamResponse } from '../../../common/contracts/team';
import { may } from '../../../common/permissions';
import { queryRows, type Db, type Tx } from '../../db/client';
import { invitations, memberships, sessions, users } from '../../db/schema/auth';
import { withTenant } from '../../db/tenant-tx';
import type { Mailer } from '../../integrations/mail';
import { AppError, notFound } from '../../lib/errors';
import { ROLE_REFUSED_MESSAGE } from '../../lib/roles';
import { identityChanged } from '../auth/identity-cache';
import { peopleByIds } from '../auth/people';
import type { TenantIdentity } from '../auth/identity';
import { assertWithinLimit } from '../billing/plans';
import { invitationLink, invitationMail } from './mail';

/** SHA-256 (hex) of an invitation secret, as stored in `invitations.token_hash`. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new invitation secret (32 random bytes, base64url) and its hash. */
function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The members of the caller's company (by email) and its open invitations (newest first). */
export async function listTeam(db: Db, who: TenantIdentity, now: Date): Promise<TeamResponse> {
  const { members, open } = await withTenant(db, who.tenantId, async (tx) => ({
    members: await queryRows<{ user_id: string; role: string; joined_at: string | Date }>(
      tx,
      sql`select user_id, role, created_at as joined_at from memberships where tenant_id = ${who.tenantId}`,
    ),
    open: await queryRows<{ id: string; email: string; role: string; expires_at: string | Date; inviter_id: string | null }>(
      tx,
      sql`select i.id, i.email, i.role, i.expires_at, i.inviter_id
          from invitations i
          where i.tenant_id = ${who.tenantId} and i.status = 'pending' and i.expires_at > ${now.toISOString()}::timestamptz
          order by i.created_at desc`,
    ),
  }));
  const people = await peopleByIds(db, members.map((m) => m.user_id));
  const listed = members.flatMap((m) => {
    const person = people.get(m.user_id);
    return person ? [{ ...m, person }] : [];
  });
  listed.sort((a, b) => a.person.email.toLowerCase().localeCompare(b.person.email.toLowerCase()));
  return {
    members: listed.map(
      (m): TeamMember => ({
        user_id: m.user_id,
        email: m.person.email,
        name: m.person.name,
        role: (roles as readonly string[]).includes(m.role) ? (m.role as Role) : null,
        joined_at: iso(m.joined_at),
        last_active_at: m.person.lastActiveAt === null ? null : m.person.lastActiveAt.toISOString(),
      }),
    ),
    invitations: open.map(
      (i): PendingInvitation => ({
        id: i.id,
        email: i.email,
        role: (invitedRoles as readonly string[]).includes(i.role) ? (i.role as PendingInvitation['role']) : 'member',
        expires_at: iso(i.expires_at),
        // An inviter who has left the company is not named.
        invited_by: (i.inviter_id && members.some((m) => m.user_id === i.inviter_id) ? people.get(i.inviter_id)?.email : undefined) ?? 'a former member',
      }),
    ),
  };
}

export interface InviteContext {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  now: Date;
}

/** The company's name and the inviter's name, for the email (read by the server's login, before the invitation's transaction). */
async function senderOf(db: Db, who: TenantIdentity): Promise<{ company: string; inviter: string }> {
  const [company] = await queryRows<{ name: string }>(db, sql`select name from tenants where id = ${who.tenantId}`);
  const name = (await peopleByIds(db, [who.userId])).get(who.userId)?.name;
  const inviter = name && name !== who.email ? `${name} (${who.email})` : who.email;
  return { company: company?.name ?? 'your company', inviter };
}

/**
 * Sends the invitation email; when it cannot be sent the invitation goes too, so a refused
 * request has changed nothing.
 * @throws AppError PROVIDER_ERROR when the mail server refuses the message.
 */
async function mailOrRollBack(ctx: InviteContext, message: Parameters<Mailer['send']>[0], undo: () => Promise<unknown>): Promise<void> {
  try {
    await ctx.mailer.send(message);
  } catch {
    await undo();
    throw new AppError('PROVIDER_ERROR', 'The invitation email could not be sent. Please try again.');
  }
}

/**
 * Invites `body.email` into the caller's company as `body.role`: checks the address is not the
 * caller's, not a member's, not another company's account and not already invited; takes a seat
 * of the plan's `max_users` in the same transaction (members and open invitations count, the
 * subscription row locked: two invitations cannot take the last seat); then emails the link.
 * @throws AppError CONFLICT (yourself, a member, another company, already invited), LIMIT_REACHED,
 *   PROVIDER_ERROR (the email could not be sent; nothing is kept).
 */
export async function invite(ctx: InviteContext, who: TenantIdentity, body: InviteBody): Promise<PendingInvitation> {
  if (body.email === who.email.toLowerCase()) throw new AppError('CONFLICT', 'You cannot invite yourself.');
  // Accounts are looked at before the tenant scope: another company's memberships are invisible in it.
  const [account] = await queryRows<{ tenant_id: string | null }>(
    ctx.db,
    sql`select m.tenant_id from ${users} u left join ${memberships} m on m.user_id = u.id where lower(u.email) = ${body.email} limit 1`,
  );
  if (account?.tenant_id === who.tenantId) throw new AppError('CONFLICT', `${body.email} is already a member of your company.`);
  if (account?.tenant_id) {
    throw new AppError('CONFLICT', `${body.email} already belongs to another company. A person can belong to one company only.`);
  }
  const { token, hash } = newToken();
  const expiresAt = addDays(ctx.now, INVITATION_DAYS, { in: utc });
  const sender = await senderOf(ctx.db, who);
  const id = await withTenant(ctx.db, who.tenantId, async (tx) => {
    await assertWithinLimit(tx, who.tenantId, 'users', 1, ctx.now);
    // An expired invitation of the address no longer holds its seat nor blocks a new one.
    await tx
      .update(invitations)
      .set({ status: 'canceled' })
      .where(and(eq(invitations.organizationId, who.tenantId), eq(invitations.status, 'pending'), sql`lower(${invitations.email}) = ${body.email}`, sql`${invitations.expiresAt} <= ${ctx.now.toISOString()}::timestamptz`));
    const inserted = await tx
      .insert(invitations)
      .values({ organizationId: who.tenantId, email: body.email, role: body.role, status: 'pending', expiresAt, inviterId: who.userId, tokenHash: hash })
      .onConflictDoNothing()
      .returning({ id: invitations.id });
    if (inserted.length === 0) throw new AppError('CONFLICT', `An invitation to ${body.email} is already pending. Resend it from the list.`);
    return inserted[0]!.id;
  });
  await mailOrRollBack(
    ctx,
    invitationMail({ to: body.email, ...sender, role: body.role, link: invitationLink(ctx.appUrl, token) }),
    () => withTenant(ctx.db, who.tenantId, (tx) => tx.delete(invitations).where(and(eq(invitations.organizationId, who.tenantId), eq(invitations.id, id)))),
  );
  return { id, email: body.email, role: body.role, expires_at: expiresAt.toISOString(), invited_by: who.email };
}

/**
 * Sends an open invitation again with a new link (the old one stops working) valid for
 * INVITATION_DAYS from now. An expired one takes a seat again, checked like a new invitation.
 * @throws AppError NOT_FOUND (no open invitation of the company with that id), LIMIT_REACHED, PROVIDER_ERROR.
 */
export async function resendInvitation(ctx: InviteContext, who: TenantIdentity, invitationId: string): Promise<PendingInvitation> {
  const { token, hash } = newToken();
  const expiresAt = addDays(ctx.now, INVITATION_DAYS, { in: utc });
  const sender = await senderOf(ctx.db, who);
  const { row, previous } = await withTenant(ctx.db, who.tenantId, async (tx) => {
    const [found] = await tx
      .select({ email: invitations.email, role: invitations.role, expiresAt: invitations.expiresAt, tokenHash: invitations.tokenHash })
      .from(invitations)
      .where(and(eq(invitations.organizationId, who.tenantId), eq(invitations.id, invitationId), eq(invitations.status, 'pending')))
      .for('update');
    if (!found) throw notFound('Invitation');
    if (found.expiresAt.getTime() <= ctx.now.getTime()) await assertWithinLimit(tx, who.tenantId, 'users', 1, ctx.now);
    await tx
      .update(invitations)
      .set({ tokenHash: hash, expiresAt })
      .where(and(eq(invitations.organizationId, who.tenantId), eq(invitations.id, invitationId)));
    return { row: found, previous: { tokenHash: found.tokenHash, expiresAt: found.expiresAt } };
  });
  const role = row.role === 'admin' ? 'admin' : 'member';
  await mailOrRollBack(ctx, invitationMail({ to: row.email, ...sender, role, link: invitationLink(ctx.appUrl, token) }), () =>
    withTenant(ctx.db, who.tenantId, (tx) =>
      tx.update(invitations).set(previous).where(and(eq(invitations.organizationId, who.tenantId), eq(invitations.id, invitationId), eq(invitations.tokenHash, hash))),
    ),
  );
  return { id: invitationId, email: row.email, role, expires_at: expiresAt.toISOString(), invited_by: who.email };
}

/**
 * Revokes an open invitation: its link stops working and its seat is free.
 * @throws AppError NOT_FOUND when the company has no open invitation with that id.
 */
export async function revokeInvitation(db: Db, who: TenantIdentity, invitationId: string): Promise<void> {
  const revoked = await withTenant(db, who.tenantId, (tx) =>
    tx
      .update(invitations)
      .set({ status: 'canceled' })
      .where(and(eq(invitations.organizationId, who.tenantId), eq(invitations.id, invitationId), eq(invitations.status, 'pending')))
      .returning({ id: invitations.id }),
  );
  if (revoked.length === 0) throw notFound('Invitation');
}

/**
 * Locks the company's owners and the member `userId`; applies the rules that depend on them.
 * @returns the member's current role.
 * @throws AppError NOT_FOUND (not a member of the company), FORBIDDEN (an owner's role or
 *   removal, or a new owner, by someone who is not an owner).
 */
async function lockMember(tx: Tx, who: TenantIdentity, userId: string, newRole?: Role): Promise<{ role: string; owners: number }> {
  const rows = await tx
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, who.tenantId), sql`(${memberships.userId} = ${userId} or ${memberships.role} = 'owner')`))
    .orderBy(asc(memberships.id))
    .for('update');
  const target = rows.find((r) => r.userId === userId);
  if (!target) throw notFound('User');
  if ((target.role === 'owner' || newRole === 'owner') && !may(who.role, 'ownership')) throw new AppError('FORBIDDEN', ROLE_REFUSED_MESSAGE);
  return { role: target.role, owners: rows.filter((r) => r.role === 'owner').length };
}

const LAST_OWNER = 'A company needs an owner. Make another member an owner first.';

/**
 * Gives the member `userId` the role `role`; takes effect on their next request.
 * @throws AppError NOT_FOUND, FORBIDDEN (see lockMember), LAST_RECORD (demoting the last owner).
 */
export async function changeRole(db: Db, who: TenantIdentity, userId: string, role: Role): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    const target = await lockMember(tx, who, userId, role);
    if (target.role === role) return;
    if (target.role === 'owner' && target.owners <= 1) throw new AppError('LAST_RECORD', `The last owner cannot be demoted. ${LAST_OWNER}`);
    await tx.update(memberships).set({ role }).where(and(eq(memberships.organizationId, who.tenantId), eq(memberships.userId, userId)));
    await identityChanged(tx, userId);
  });
}

/**
 * Removes the member `userId` from the company and ends their sessions: their next request, from
 * any tab, is refused and the app returns them to sign-in. Their account stays, without a company.
 * @throws AppError NOT_FOUND, FORBIDDEN (see lockMember), LAST_RECORD (the last owner).
 */
export async function removeMember(db: Db, who: TenantIdentity, userId: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    const target = await lockMember(tx, who, userId);
    if (target.role === 'owner' && target.owners <= 1) throw new AppError('LAST_RECORD', `The last owner cannot be removed. ${LAST_OWNER}`);
    await tx.delete(memberships).where(and(eq(memberships.organizationId, who.tenantId), eq(memberships.userId, userId)));
    await identityChanged(tx, userId);
  });
  // Sessions are better-auth's (no rights in a tenant transaction). The membership is already
  // gone, so even if this fails their requests are refused (no company); it ends them at once.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), sql`not exists (select 1 from ${memberships} where ${memberships.userId} = ${userId})`));
}
