/**
 * Accounts with better-auth: email + password with required email confirmation, sessions in
 * cookies, and the organization plugin whose organizations are our tenants (decision 001).
 * Tenants are created by onboarding (with their trial), never by the plugin's own endpoint.
 * Sign-up rules (decisions 002 and 014): a new password passes `passwordProblem`; a taken email
 * is refused, unless its account was never confirmed and is older than
 * UNCONFIRMED_ACCOUNT_HOURS, in which case the new sign-up replaces it; confirmation emails are
 * limited per address. Password reset (a single-use link valid RESET_LINK_MINUTES, no hint whether
 * an address has an account) and change go through better-auth's endpoints, with the same rule
 * for the new password; every email goes through the one mailer.
 */
import type { FastifyBaseLogger } from 'fastify';
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { organization } from 'better-auth/plugins';
import type { Db } from '../../db/client';
import { schema } from '../../db/schema';
import type { Mailer } from '../../integrations/mail';
import type { Limits } from '../../lib/limits';
import { trustedOrigins } from '../../lib/origin-guard';
import { z } from 'zod';
import { requiredText } from '../../../common/contracts/fields';
import { PASSWORD_MIN_LENGTH } from '../../../common/contracts/password';
import { passwordProblem } from './password';

/**
 * How long better-auth trusts a signed session copy in the `session_data` cookie without reading
 * the session (seconds); API routes check the session row on every request all the same (decision 014).
 */
export const SESSION_COOKIE_CACHE_SECONDS = 60;

/**
 * Hours a confirmation link stays valid, and after which an account never confirmed may be taken
 * over by a new sign-up for its email (its links have all expired by then, so none of them can
 * confirm the new account).
 */
export const UNCONFIRMED_ACCOUNT_HOURS = 24;

/**
 * Confirmation emails sent to one address per CONFIRMATION_EMAIL_WINDOW_SECONDS, whatever asks for
 * them and whichever server sends them (lib/limits.ts); only a sign-up's own email may go past it
 * (see sendVerificationEmail). Reset emails have the same limit, counted apart.
 */
export const CONFIRMATION_EMAILS_PER_WINDOW = 3;
export const CONFIRMATION_EMAIL_WINDOW_SECONDS = 60 * 60;

/** Minutes a password reset link stays valid; it can be used once. */
export const RESET_LINK_MINUTES = 60;

/** The name and email of a sign-up; better-auth checks the email's form, not its characters. */
const signUpFields = z.object({
  email: z.string().max(254, 'Email can be at most 254 characters').refine((e) => !/\p{Cc}/u.test(e), 'Email must not contain control characters'),
  name: requiredText('Name', 'Name is required'),
});

/** Endpoints that set a password, and the body field that carries the new one. */
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  '/sign-up/email': 'password',
  '/change-password': 'newPassword',
  '/reset-password': 'newPassword',
};

export interface AuthOptions {
  db: Db;
  secret: string;
  /** Public origin, e.g. http://localhost:3000. */
  appUrl: string;
  mailer: Mailer;
  /** The server log, which gets better-auth's own messages; without it better-auth prints them itself. */
  log?: FastifyBaseLogger;
  /** Where the confirmation and reset emails of an address are counted. */
  limits: Limits;
}

/** Makes a confirmation link return to /login?verified=1 unless it names another page. */
function withSignInCallback(link: string): string {
  const url = new URL(link);
  const callback = url.searchParams.get('callbackURL');
  if (!callback || callback === '/') url.searchParams.set('callbackURL', '/login?verified=1');
  return url.toString();
}

/**
 * better-auth's logger writing to `log`: each message one line at its level, an Error among its
 * arguments as `err` (pino's error serializer) and the other arguments as `details`.
 */
function authLogger(log: FastifyBaseLogger) {
  return {
    log(level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]) {
      const err = args.find((arg) => arg instanceof Error);
      const details = args.filter((arg) => !(arg instanceof Error));
      log[level]({ ...(err ? { err } : {}), ...(details.length > 0 ? { details } : {}) }, message);
    },
  };
}

/** Builds the better-auth instance mounted at /api/auth. */
export function createAuth({ db, secret, appUrl, mailer, limits, log }: AuthOptions) {
  const emailLimit = { points: CONFIRMATION_EMAILS_PER_WINDOW, durationSeconds: CONFIRMATION_EMAIL_WINDOW_SECONDS };
  const confirmationEmails = limits.limit({ name: 'confirmation-emails', ...emailLimit });
  const resetEmails = limits.limit({ name: 'reset-emails', ...emailLimit });
  return betterAuth({
    appName: 'Inventory Manager',
    baseURL: appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: trustedOrigins(appUrl),
    telemetry: { enabled: false },
    // One JSON line of the server log each, instead of colored text of its own on the console.
    ...(log ? { logger: authLogger(log) } : {}),
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
      minPasswordLength: PASSWORD_MIN_LENGTH,
      requireEmailVerification: true,
      autoSignIn: false,
      resetPasswordTokenExpiresIn: RESET_LINK_MINUTES * 60,
      // A reset is what someone does whose password may be known to another: every session ends.
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }) {
        // Limited per address like the confirmation emails. Not awaited: an answer that took an
        // email's time would tell which addresses have an account (the answer is the same).
        if (!(await resetEmails.take(user.email.toLowerCase())).allowed) return;
        // The secret goes after '#': a fragment never reaches a request log (decision 029).
        const url = `${new URL('/reset-password', appUrl).toString()}#${token}`;
        void mailer
          .send({
            to: user.email,
            subject: 'Reset your Inventory Manager password',
            text: `Someone asked to reset the password of your Inventory Manager account.\n\nChoose a new password by opening this link:\n${url}\n\nThe link is valid for ${RESET_LINK_MINUTES} minutes and can be used once. If you did not ask for it, ignore this message: your password stays as it is.`,
          })
          .catch(() => undefined);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: UNCONFIRMED_ACCOUNT_HOURS * 60 * 60,
      async sendVerificationEmail({ user, url: link }, request) {
        // Every unconfirmed sign-in and the resend endpoint ask for a resend: past the limit
        // nothing is sent (the answer is unchanged), so nobody can flood an inbox. A sign-up's
        // own email counts but always goes: an address gets a new account at most once per
        // UNCONFIRMED_ACCOUNT_HOURS, and resends someone else asked for must not keep the
        // address's owner from confirming the account they take over.
        const key = user.email.toLowerCase();
        if (request && new URL(request.url).pathname.endsWith('/sign-up/email')) await confirmationEmails.count(key);
        else if (!(await confirmationEmails.take(key)).allowed) return;
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
      before: createAuthMiddleware(async (ctx) => {
        const body = ctx.body as Record<string, unknown> | undefined;
        const passwordField = NEW_PASSWORD_FIELDS[ctx.path];
        const problem = passwordField ? passwordProblem(body?.[passwordField]) : null;
        if (problem) throw new APIError('BAD_REQUEST', { message: problem });
        if (ctx.path !== '/sign-up/email') return;
        // The account's own fields are checked at the edge like every other text (decision 011):
        // a NUL byte would otherwise reach the database, and a name of any length be stored.
        const fields = signUpFields.safeParse(body);
        if (!fields.success) throw new APIError('BAD_REQUEST', { message: fields.error.issues[0]!.message });
        // better-auth answers a sign-up for a taken email with a fake success once email
        // confirmation is on; the product says the account exists instead (decision 002; the
        // auth rate limit bounds probing). An account nobody confirmed in time is not taken:
        // it goes, and this sign-up creates the address's account anew.
        const email = String(body?.email ?? '').toLowerCase();
        const existing = email ? await ctx.context.internalAdapter.findUserByEmail(email) : null;
        if (!existing) return;
        const { user } = existing;
        if (!user.emailVerified && user.createdAt.getTime() <= Date.now() - UNCONFIRMED_ACCOUNT_HOURS * 60 * 60 * 1000) {
          await ctx.context.internalAdapter.deleteUser(user.id);
          return;
        }
        throw new APIError('UNPROCESSABLE_ENTITY', { code: 'USER_ALREADY_EXISTS', message: 'User already registered' });
      }),
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      // A signed copy of the session in a cookie spares better-auth two queries per request
      // (decision 006); API routes still check the session row (decision 014).
      cookieCache: { enabled: true, maxAge: SESSION_COOKIE_CACHE_SECONDS },
    },
    plugins: [organization({ allowUserToCreateOrganization: false })],
  });
}

export type Auth = ReturnType<typeof createAuth>;
