/**
 * Mounts better-auth's Fetch handler on /api/auth/*: the Node request becomes a Fetch Request
 * carrying the client IP (`request.ip`, see TRUST_PROXY), and every Set-Cookie of the answer is
 * copied back. POSTs (sign-in, sign-up, resend...) are rate limited per client IP. Error answers
 * get the standard body `{ error: { code, message } }` (`authError`,
 * docs/decisions/014-origins-sessions-accounts.md).
 */
import type { Db } from '../../db/client';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../lib/db-errors';
import { AppError } from '../../lib/errors';
import { latestMigration, readiness } from '../health/service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { errorStatus, type ErrorBody, type ErrorCode } from '../../../common/errors';
import type { Auth } from './auth';
import type { IdentityCache } from './identity-cache';

/** Our code, and its message when better-auth gives none, for a better-auth error status. */
const CODE_BY_STATUS: Record<number, { code: ErrorCode; message: string }> = {
  400: { code: 'VALIDATION', message: 'Invalid request' },
  401: { code: 'UNAUTHENTICATED', message: 'No authenticated user' },
  403: { code: 'FORBIDDEN', message: 'Not allowed' },
  404: { code: 'NOT_FOUND', message: 'Not found' },
  422: { code: 'USER_ALREADY_EXISTS', message: 'User already registered' },
  429: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a minute and try again.' },
};

/** The answer to a better-auth error: status and standard body. */
export interface AuthError {
  status: number;
  body: ErrorBody;
}

/**
 * The standard error answer for a better-auth error answer (`status` >= 400, body `text`, its
 * own `{ code, message }` or `null`): better-auth's code when it is one of ours with that status
 * (EMAIL_NOT_VERIFIED, USER_ALREADY_EXISTS), else our code for the status (422 is better-auth's
 * "user already exists"); better-auth's message when it gave one (the screens show it: "Invalid
 * email or password", the password rules). Another 4xx (405, 415...) becomes 400 VALIDATION, as
 * the error handler does for Fastify's; a 5xx is 500 INTERNAL with our text, never better-auth's.
 */
export function authError(status: number, text: string): AuthError {
  const internal = { code: 'INTERNAL', message: 'Something went wrong. Please try again.' } as const;
  if (status >= 500) return { status: errorStatus.INTERNAL, body: { error: internal } };
  const given = jsonObject(text);
  const givenCode = typeof given?.code === 'string' ? given.code : '';
  const fallback = CODE_BY_STATUS[status] ?? CODE_BY_STATUS[400]!;
  const code = givenCode in errorStatus && errorStatus[givenCode as ErrorCode] === status ? (givenCode as ErrorCode) : fallback.code;
  const message = typeof given?.message === 'string' && given.message ? given.message : fallback.message;
  return { status: errorStatus[code], body: { error: { code, message } } };
}

/** `text` parsed as a JSON object, or null (an empty, `null` or non-JSON body). */
function jsonObject(text: string): { code?: unknown; message?: unknown } | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' ? (value as { code?: unknown; message?: unknown } | null) : null;
  } catch {
    return null;
  }
}

export interface AuthRoutesOptions {
  auth: Auth;
  /** Asked whether it answers when better-auth fails with a 5xx (an outage is a 503, not a bug). */
  db: Db;
  appUrl: string;
  /** Auth POST requests allowed per IP per minute. */
  rateLimitPerMinute: number;
  /** The identity cache to bring up to date before a change of sessions or accounts is answered. */
  identities?: IdentityCache;
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    // The organization plugin's own endpoints (members, roles, invitations) would answer by its
    // own roles, beside the declared ones: the team routes (modules/team) are the only way in
    // (docs/decisions/029-team-and-invitations.md).
    if (request.url.startsWith('/api/auth/organization/')) throw new AppError('NOT_FOUND', 'Not found');
    const headers = fromNodeHeaders(request.headers);
    headers.set('x-forwarded-for', request.ip);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
    const response = await opts.auth.handler(
      new Request(new URL(request.url, opts.appUrl), {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(request.body) : undefined,
      }),
    );
    // A sign-out, a password change that ends the other sessions, an email change: the cache
    // learns of it before the answer goes out, so the next request already sees it.
    if (request.method === 'POST') await opts.identities?.settle();
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (response.status >= 500 && (await readiness(opts.db, latestMigration())).ready === false) {
      // better-auth turns every database failure into its own 500 without the cause; when the
      // database does not answer now, the failure was the outage, and is answered as one.
      throw new AppError('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
    }
    if (response.status >= 400) {
      const { status, body } = authError(response.status, await response.text());
      return reply.status(status).type('application/json; charset=utf-8').send(body);
    }
    return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
  }

  // better-auth answers for its own sessions: sign-up and sign-in come before any.
  app.get('/api/auth/*', { config: { access: 'public' } }, handle);
  app.post('/api/auth/*', { config: { access: 'public', rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 } } }, handle);
}
