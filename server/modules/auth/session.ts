/**
 * Request identity: resolves the signed-in user from the session cookie and the user's tenant
 * and role from their membership. The tenant id comes only from here (DESIGN.md §3).
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Role } from '../../../common/contracts/session';
import type { Db } from '../../db/client';
import { memberships } from '../../db/schema/auth';
import { AppError } from '../../lib/errors';
import type { Auth } from './auth';
import { SessionMemo, type SessionUser } from './session-memo';

/**
 * Cookies better-auth set while reading a request's session (a renewed signed session copy once
 * the old one is older than SESSION_COOKIE_CACHE_SECONDS, or a cleared one), sent with the reply
 * by `forwardSessionCookies` so the next requests skip the session queries again.
 */
const sessionCookies = new WeakMap<FastifyRequest, string[]>();

/** Fastify onSend hook: adds the cookies set by the request's session read to the reply. */
export async function forwardSessionCookies(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const cookies = sessionCookies.get(request);
  if (cookies) reply.header('set-cookie', cookies);
}

export interface Identity {
  userId: string;
  email: string;
  tenantId: string | null;
  role: Role | null;
}

export interface TenantIdentity extends Identity {
  tenantId: string;
  role: Role;
}

const preparedMembership = new WeakMap<Db, ReturnType<typeof prepareMembership>>();

/**
 * The user's membership (tenant and role), read on every request: a named prepared statement, so
 * it is planned once per connection. Read before any tenant is known, as the owner login (RLS is
 * not forced on memberships: decision 001).
 */
function prepareMembership(db: Db) {
  return db
    .select({ tenantId: memberships.organizationId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, sql.placeholder('userId')))
    .limit(1)
    .prepare('membership_of_user');
}

function membershipOf(db: Db) {
  let query = preparedMembership.get(db);
  if (!query) preparedMembership.set(db, (query = prepareMembership(db)));
  return query;
}

const memos = new WeakMap<Auth, Promise<SessionMemo>>();

/** The session memo of `auth` (decision 008), made on first use. */
function memoOf(auth: Auth): Promise<SessionMemo> {
  let memo = memos.get(auth);
  if (!memo) memos.set(auth, (memo = auth.$context.then((context) => new SessionMemo(context.authCookies.sessionData.name))));
  return memo;
}

/**
 * Sign-out (POST /api/auth/sign-out): the signed-out Cookie header is refused from now on, not
 * only once its session copy expires (decision 008).
 */
export async function forgetSession(auth: Auth, request: FastifyRequest): Promise<void> {
  if (request.headers.cookie) (await memoOf(auth)).signOut(request.headers.cookie);
}

/**
 * The signed-in user of `request`: from the session memo when its Cookie header was verified
 * before and its session copy is still valid, else read by better-auth (from the copy, or from
 * the database when the copy is missing or expired, which also renews it).
 * @throws AppError UNAUTHENTICATED (401) without a valid session.
 */
async function sessionUser(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const cookie = request.headers.cookie;
  const memo = await memoOf(auth);
  const known = cookie ? memo.lookup(cookie) : undefined;
  if (known) return known;
  if (known === null) throw new AppError('UNAUTHENTICATED', 'No authenticated user');
  const { headers, response: session } = await auth.api.getSession({ headers: fromNodeHeaders(request.headers), returnHeaders: true });
  const refreshed = headers.getSetCookie();
  if (refreshed.length > 0) sessionCookies.set(request, refreshed);
  if (!session) throw new AppError('UNAUTHENTICATED', 'No authenticated user');
  const user = { id: session.user.id, email: session.user.email };
  // Only a session served from the header's own copy is remembered for that header.
  if (cookie && refreshed.length === 0) memo.remember(cookie, user, session.session.expiresAt);
  return user;
}

/**
 * Reads the session of `request`, then the user's membership (tenant and role) from the database.
 * @throws AppError UNAUTHENTICATED (401) without a valid session.
 */
export async function requireIdentity(auth: Auth, db: Db, request: FastifyRequest): Promise<Identity> {
  const user = await sessionUser(auth, request);
  const [membership] = await membershipOf(db).execute({ userId: user.id });
  return {
    userId: user.id,
    email: user.email,
    tenantId: membership?.tenantId ?? null,
    role: (membership?.role as Role | undefined) ?? null,
  };
}

/**
 * Like requireIdentity, for routes that need a tenant.
 * @throws AppError NO_TENANT (409) when the user has not created a company yet.
 */
export async function requireTenant(auth: Auth, db: Db, request: FastifyRequest): Promise<TenantIdentity> {
  const identity = await requireIdentity(auth, db, request);
  if (!identity.tenantId || !identity.role) throw new AppError('NO_TENANT', 'No tenant ID available');
  return identity as TenantIdentity;
}
