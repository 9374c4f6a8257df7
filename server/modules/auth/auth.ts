/**
 * Accounts with better-auth: email + password with required email confirmation, sessions in
 * cookies, and the organization plugin whose organizations are our tenants (DESIGN.md §3).
 * Tenants are created by onboarding (with their trial), never by the plugin's own endpoint.
 * Sign-up rules: SPEC.md §5 (password at least 6 characters).
 */
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { organization } from 'better-auth/plugins';
import type { Db } from '../../db/client';
import { schema } from '../../db/schema';
import type { Mailer } from '../../integrations/mail';
import { trustedOrigins } from '../../lib/origin-guard';

/** How long a signed session copy in the `session_data` cookie is trusted without a query (seconds). */
export const SESSION_COOKIE_CACHE_SECONDS = 60;

export interface AuthOptions {
  db: Db;
  secret: string;
  /** Public origin, e.g. http://localhost:3000. */
  appUrl: string;
  mailer: Mailer;
}

/** Makes a confirmation link return to /login?verified=1 unless it names another page. */
function withSignInCallback(link: string): string {
  const url = new URL(link);
  const callback = url.searchParams.get('callbackURL');
  if (!callback || callback === '/') url.searchParams.set('callbackURL', '/login?verified=1');
  return url.toString();
}

/** Builds the better-auth instance mounted at /api/auth. */
export function createAuth({ db, secret, appUrl, mailer }: AuthOptions) {
  return betterAuth({
    appName: 'Inventory Manager',
    baseURL: appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: trustedOrigins(appUrl),
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.users,
        session: schema.sessions,
        account: schema.accounts,
        verification: schema.verifications,
        organization: schema.tenants,
        member: schema.memberships,
        invitation: schema.invitations,
      },
    }),
    advanced: { database: { generateId: 'uuid' } },
    // Requests are limited by @fastify/rate-limit in front of the handler.
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      requireEmailVerification: true,
      autoSignIn: false,
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url: link }) {
        // Links resent on an unconfirmed sign-in carry no callback; they too land on sign-in.
        const url = withSignInCallback(link);
        await mailer.send({
          to: user.email,
          subject: 'Confirm your email for Inventory Manager',
          text: `Welcome to Inventory Manager.\n\nConfirm your email address by opening this link:\n${url}\n\nThe link is valid for 24 hours. If you did not sign up, ignore this message.`,
          html: `<p>Welcome to Inventory Manager.</p><p><a href="${url}">Confirm your email address</a></p><p>The link is valid for 24 hours. If you did not sign up, ignore this message.</p>`,
        });
      },
    },
    hooks: {
      // better-auth answers a sign-up for a taken email with a fake success once email
      // confirmation is on; SPEC.md §5 has the product say 'An account with this email already
      // exists' instead, so the duplicate is refused up front (the auth rate limit bounds probing).
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/sign-up/email') return;
        const email = String((ctx.body as { email?: unknown } | undefined)?.email ?? '').toLowerCase();
        if (email && (await ctx.context.internalAdapter.findUserByEmail(email))) {
          throw new APIError('UNPROCESSABLE_ENTITY', {
            code: 'USER_ALREADY_EXISTS',
            message: 'User already registered',
          });
        }
      }),
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      // A signed copy of the session in a cookie spares two queries per request; a session
      // revoked elsewhere stays usable for at most this long (docs/decisions/006-session-cookie-cache.md).
      cookieCache: { enabled: true, maxAge: SESSION_COOKIE_CACHE_SECONDS },
    },
    plugins: [organization({ allowUserToCreateOrganization: false })],
  });
}

export type Auth = ReturnType<typeof createAuth>;
