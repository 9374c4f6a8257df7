/**
 * What an invitation link does (docs/decisions/029-team-and-invitations.md): shows the company
 * and the inviter, then makes the invitee a member, either signed in already with the invited
 * email (one button) or as a new account made from the link, whose address the link has proven
 * (no confirmation email). An invitation is used once: it is locked, checked and marked accepted
 * in the transaction that adds the membership, so a replayed or doubled request finds it used.
 *
 * The link's secret is looked up by its hash before any tenant is known (it names the tenant),
 * as the server login, like the membership lookup of every request (decision 001).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { InvitationPreview, JoinBody } from '../../../common/contracts/team';
import { queryRows, type Db, type Tx } from '../../db/client';
import { accounts, invitations, memberships, users } from '../../db/schema/auth';
import { AppError } from '../../lib/errors';
import type { Auth } from '../auth/auth';
import { passwordProblem } from '../auth/password';
import { identityChanged } from '../auth/identity-cache';
import type { Identity } from '../auth/identity';
import { tokenHash } from './service';

interface OpenInvitation {
  tenantId: string;
  id: string;
  email: string;
  role: 'admin' | 'member';
  company: string;
  inviter: string;
}

/** The refusal for a link that is not (or no longer) an open invitation. */
export const LINK_REFUSALS = {
  invalid: 'This invitation link is not valid. Check that you opened the whole link from the email, or ask for a new invitation.',
  used: 'This invitation has already been used. Sign in to continue.',
  revoked: 'This invitation was revoked. Ask the person who invited you for a new one.',
  expired: 'This invitation has expired. Ask the person who invited you to send it again.',
} as const;

/**
 * The open invitation of the link secret `token`, locked until `q`'s transaction ends when `lock`.
 * @throws AppError NOT_FOUND (no such link: mistyped or tampered), CONFLICT (used, revoked or expired).
 */
async function openInvitation(q: Db | Tx, token: string, now: Date, lock: boolean): Promise<OpenInvitation> {
  const hash = tokenHash(token);
  // The link names no company: its invitation is found by the secret alone, then locked by its
  // company too (on Citus, a row lock must name the one shard it is on).
  const [found] = lock ? await queryRows<{ tenant_id: string }>(q, sql`select tenant_id from ${invitations} where token_hash = ${hash}`) : [];
  if (lock && !found) throw new AppError('NOT_FOUND', LINK_REFUSALS.invalid);
  const [row] = await queryRows<{ tenant_id: string; id: string; email: string; role: string; status: string; expires_at: string | Date; company: string; inviter: string }>(
    q,
    sql`select i.tenant_id, i.id, i.email, i.role, i.status, i.expires_at, t.name as company,
               case when u.name = u.email then u.email else u.name || ' (' || u.email || ')' end as inviter
        from ${invitations} i join tenants t on t.id = i.tenant_id join ${users} u on u.id = i.inviter_id
        where i.token_hash = ${hash}
        ${found ? sql`and i.tenant_id = ${found.tenant_id} for update of i` : sql``}`,
  );
  if (!row) throw new AppError('NOT_FOUND', LINK_REFUSALS.invalid);
  if (row.status === 'accepted') throw new AppError('CONFLICT', LINK_REFUSALS.used);
  if (row.status !== 'pending') throw new AppError('CONFLICT', LINK_REFUSALS.revoked);
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AppError('CONFLICT', LINK_REFUSALS.expired);
  return { tenantId: row.tenant_id, id: row.id, email: row.email, role: row.role === 'admin' ? 'admin' : 'member', company: row.company, inviter: row.inviter };
}

/** What the link's page shows. @throws as openInvitation. */
export async function previewInvitation(db: Db, token: string, now: Date): Promise<InvitationPreview> {
  const invitation = await openInvitation(db, token, now, false);
  const [account] = await db.select({ id: users.id }).from(users).where(and(sql`lower(${users.email}) = ${invitation.email}`, eq(users.emailVerified, true)));
  return { company_name: invitation.company, inviter: invitation.inviter, email: invitation.email, role: invitation.role, has_account: account !== undefined };
}

/**
 * Makes the account `userId` a member of the invitation's company and marks the invitation used,
 * in `tx` (the invitation locked by the caller).
 * @throws AppError CONFLICT when the account belongs to a company already (one company per person).
 */
async function join(tx: Tx, invitation: OpenInvitation, userId: string): Promise<void> {
  // Serialises with onboarding's company step of the same user (modules/onboarding/service.ts).
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
  const [existing] = await queryRows<{ tenant_id: string }>(tx, sql`select tenant_id from ${memberships} where user_id = ${userId} limit 1`);
  if (existing?.tenant_id === invitation.tenantId) throw new AppError('CONFLICT', `You are already a member of ${invitation.company}.`);
  if (existing) throw new AppError('CONFLICT', 'Your account already belongs to another company. A person can belong to one company only.');
  await tx.update(invitations).set({ status: 'accepted' }).where(and(eq(invitations.organizationId, invitation.tenantId), eq(invitations.id, invitation.id)));
  await tx.insert(memberships).values({ organizationId: invitation.tenantId, id: randomUUID(), userId, role: invitation.role });
  await identityChanged(tx, userId);
}

/**
 * The signed-in `who` accepts the invitation of `token` sent to their own email.
 * @returns the company's name.
 * @throws as openInvitation; FORBIDDEN (the invitation is for another email); CONFLICT (see join).
 */
export async function acceptInvitation(db: Db, who: Identity, token: string, now: Date): Promise<{ company_name: string }> {
  return db.transaction(async (tx) => {
    const invitation = await openInvitation(tx, token, now, true);
    if (invitation.email !== who.email.toLowerCase()) {
      throw new AppError('FORBIDDEN', `This invitation was sent to ${invitation.email}. Sign in with that address to accept it.`);
    }
    await join(tx, invitation, who.userId);
    return { company_name: invitation.company };
  });
}

/**
 * A new account for the invited email, made from the link (its address confirmed by it), joined
 * to the company, then signed in.
 * @returns the Set-Cookie headers of the new session.
 * @throws as openInvitation; VALIDATION (the password rule); CONFLICT (a confirmed account has the
 *   email: it signs in and accepts instead). An account nobody confirmed is replaced, as a
 *   sign-up would (decision 002): the link proves the address is the invitee's.
 */
export async function joinWithNewAccount(db: Db, auth: Auth, body: JoinBody, now: Date): Promise<{ cookies: string[]; company_name: string }> {
  const problem = passwordProblem(body.password);
  if (problem) throw new AppError('VALIDATION', problem, [{ path: ['password'], message: problem }]);
  const hash = await (await auth.$context).password.hash(body.password);
  const { email, company } = await db.transaction(async (tx) => {
    const invitation = await openInvitation(tx, body.token, now, true);
    const [existing] = await tx.select({ id: users.id, verified: users.emailVerified }).from(users).where(sql`lower(${users.email}) = ${invitation.email}`);
    if (existing?.verified) throw new AppError('CONFLICT', 'An account with this email already exists. Sign in to accept the invitation.');
    if (existing) await tx.delete(users).where(eq(users.id, existing.id));
    const userId = randomUUID();
    await tx.insert(users).values({ id: userId, name: body.name, email: invitation.email, emailVerified: true });
    await tx.insert(accounts).values({ accountId: userId, providerId: 'credential', userId, password: hash });
    await join(tx, invitation, userId);
    return { email: invitation.email, company: invitation.company };
  });
  const { headers } = await auth.api.signInEmail({ body: { email, password: body.password }, returnHeaders: true });
  return { cookies: headers.getSetCookie(), company_name: company };
}
