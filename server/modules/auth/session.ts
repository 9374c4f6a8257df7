/**
 * Request identity: resolves the session from its signed cookie, then the user and the user's
 * tenant and role from the live session row and their membership. The tenant id comes only from
 * here (docs/ARCHITECTURE.md, "How a request flows").
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Role } from '../../../common/contracts/session';
import type { Db } from '../../db/client';
import { memberships, sessions, users } from '../../db/schema/auth';
import { AppError } from '../../lib/errors';
import type { Auth } from './auth';
import type { Identity, TenantIdentity } from './identity';
import type { IdentityCache } from './identity-cache';
import { SessionMemo } from './session-memo';

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

const preparedIdentity = new WeakMap<Db, ReturnType<typeof prepareIdentity>>();

/**
 * The user of a live session and their membership (tenant and role), by session token: one
 * named prepared statement (planned once per connection), read on every request. A session
 * deleted by a sign-out, on any server process, or past its expiry gives no row, so it is
 * refused on the next request whatever the memo or the signed session copy say
 * (docs/decisions/014-origins-sessions-accounts.md). Read before any tenant is known, as the
 * owner login (RLS is not forced on memberships: decision 001).
 */
function prepareIdentity(db: Db) {
  return db
    .select({ userId: users.id, email: users.email, tenantId: memberships.organizationId, role: memberships.role, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, eq(memberships.userId, sessions.userId))
    .where(and(eq(sessions.token, sql.placeholder('token')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('identity_of_session');
}

function identityOf(db: Db) {
  let query = preparedIdentity.get(db);
  if (!query) preparedIdentity.set(db, (query = prepareIdentity(db)));
  return query;
}

const memos = new WeakMap<Auth, Promise<SessionMemo>>();

/** The session memo of `auth`, made on first use. */
function memoOf(auth: Auth): Promise<SessionMemo> {
  let memo = memos.get(auth);
  if (!memo) {
    memo = auth.$context.then(({ authCookies }) => new SessionMemo(authCookies.sessionToken.name, authCookies.sessionData.name));
    memos.set(auth, memo);
  }
  return memo;
}

/**
 * The session token of `request`: from the session memo when its signed session cookie was
 * verified before, else verified by better-auth (from the signed session copy, or from the
 * database when the copy is missing or expired, which also renews it).
 * @throws AppError UNAUTHENTICATED (401) without a valid session cookie.
 */
async function sessionToken(auth: Auth, request: FastifyRequest): Promise<string> {
  const cookie = request.headers.cookie;
  const memo = await memoOf(auth);
  const known = cookie ? memo.lookup(cookie) : undefined;
  if (known) return known;
  const { headers, response: session } = await auth.api.getSession({ headers: fromNodeHeaders(request.headers), returnHeaders: true });
  const refreshed = headers.getSetCookie();
  if (refreshed.length > 0) sessionCookies.set(request, refreshed);
  if (!session) throw new AppError('UNAUTHENTICATED', 'No authenticated user');
  // Only a cookie verified together with the header's own signed copy is remembered.
  if (cookie && refreshed.length === 0) memo.remember(cookie, session.session.token);
  return session.session.token;
}

/**
 * Reads the session of `request`, then its user and the user's membership (tenant and role): from
 * `identities` when it knows the session (identity-cache.ts), else from the database in one query
 * that also checks the session is still live.
 * @throws AppError UNAUTHENTICATED (401) without a valid, live session.
 */
export async function requireIdentity(auth: Auth, db: Db, request: FastifyRequest, identities?: IdentityCache): Promise<Identity> {
  const token = await sessionToken(auth, request);
  const known = identities?.get(token);
  if (known) return known;
  const mark = identities?.mark();
  const [row] = await identityOf(db).execute({ token });
  if (!row) throw new AppError('UNAUTHENTICATED', 'No authenticated user');
  const identity: Identity = { userId: row.userId, email: row.email, tenantId: row.tenantId ?? null, role: (row.role as Role | null) ?? null };
  if (identities && mark !== undefined) identities.remember(token, identity, row.expiresAt, mark);
  return identity;
}

/**
 * Like requireIdentity, for routes that need a tenant.
 * @throws AppError NO_TENANT (409) when the user has not created a company yet.
 */
export async function requireTenant(auth: Auth, db: Db, request: FastifyRequest, identities?: IdentityCache): Promise<TenantIdentity> {
  const identity = await requireIdentity(auth, db, request, identities);
  if (!identity.tenantId || !identity.role) throw new AppError('NO_TENANT', 'No tenant ID available');
  return identity as TenantIdentity;
}
