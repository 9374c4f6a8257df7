/**
 * Mounts better-auth's Fetch handler on /api/auth/*: the Node request becomes a Fetch Request
 * carrying the client IP (`request.ip`, see TRUST_PROXY), and every Set-Cookie of the answer is
 * copied back. POSTs (sign-in, sign-up, resend...) are rate limited per client IP. Error answers
 * get the standard body `{ error: { code, message } }` with better-auth's status, code and
 * message (docs/decisions/014-origins-sessions-accounts.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { ErrorCode } from '../../../common/errors';
import type { Auth } from './auth';

/** Our code and message for a better-auth error answer that carries none of its own (a `null` or empty body). */
const FALLBACK_BY_STATUS: Record<number, { code: ErrorCode; message: string }> = {
  400: { code: 'VALIDATION', message: 'Invalid request' },
  401: { code: 'UNAUTHENTICATED', message: 'No authenticated user' },
  403: { code: 'FORBIDDEN', message: 'Not allowed' },
  404: { code: 'NOT_FOUND', message: 'Not found' },
  429: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a minute and try again.' },
};
const INTERNAL = { code: 'INTERNAL', message: 'Something went wrong. Please try again.' } as const;

/**
 * The standard error body of a better-auth error answer (`status` >= 400, body `text`):
 * better-auth's own code (e.g. INVALID_EMAIL_OR_PASSWORD, EMAIL_NOT_VERIFIED,
 * USER_ALREADY_EXISTS, PASSWORD_TOO_COMMON) and message when it gave them, else our code for the
 * status. A 5xx never passes on better-auth's words.
 */
export function authErrorBody(status: number, text: string): { error: { code: string; message: string } } {
  if (status >= 500) return { error: INTERNAL };
  const given = jsonObject(text);
  const fallback = FALLBACK_BY_STATUS[status] ?? { code: 'VALIDATION', message: 'Request refused' };
  const code = typeof given?.code === 'string' && given.code ? given.code : fallback.code;
  const message = typeof given?.message === 'string' && given.message ? given.message : fallback.message;
  return { error: { code, message } };
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
  appUrl: string;
  /** Auth POST requests allowed per IP per minute. */
  rateLimitPerMinute: number;
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  async function handle(request: FastifyRequest, reply: FastifyReply) {
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
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (response.status >= 400) return reply.type('application/json; charset=utf-8').send(authErrorBody(response.status, await response.text()));
    return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
  }

  app.get('/api/auth/*', handle);
  app.post('/api/auth/*', { config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 } } }, handle);
}
