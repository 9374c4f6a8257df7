/**
 * Mounts better-auth's Fetch handler on /api/auth/* (STACK-NOTES "better-auth inside Fastify"):
 * the Node request becomes a Fetch Request carrying the client IP, and every Set-Cookie of the
 * answer is copied back. POSTs (sign-in, sign-up, resend...) are rate limited per IP.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Auth } from './auth';

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
    return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
  }

  app.get('/api/auth/*', handle);
  app.post('/api/auth/*', { config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 } } }, handle);
}
