/**
 * HTTP routes of the morning email and the company's time zone (docs/product.md "Daily email"):
 * the signed-in member's setting, the admins' time zone, and the public unsubscribe of the
 * email's link.
 *
 * Unsubscribing is a POST, never a GET: mail scanners open the links of an email to check them,
 * and a GET that changed the setting would turn the email off unasked. The email's link opens
 * the web page /unsubscribe, whose button posts the token; mail providers that offer their own
 * unsubscribe button post the one-click form of RFC 8058 (`List-Unsubscribe=One-Click`, form
 * encoded) to the same route with the token in the query.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyTimeZone,
  companyTimeZoneBody,
  dailyEmailBody,
  dailyEmailSetting,
  unsubscribeBody,
  unsubscribeQuery,
  unsubscribeResult,
} from '../../../common/contracts/daily-email';
import { leastRole } from '../../../common/permissions';
import type { AppContext } from '../../context';
import type { IdentityCache } from '../auth/identity-cache';
import type { DailyEmailJobs } from './jobs';
import { getSetting, setCompanyTimeZone, setSetting, unsubscribe, type DailyEmailDeps } from './service';

/** Unsubscribe requests per client IP per minute, all servers together (guessing tokens is hopeless; this keeps it cheap). */
export const UNSUBSCRIBES_PER_MINUTE = 30;

export interface DailyEmailRoutesOptions {
  ctx: AppContext;
  jobs: DailyEmailJobs;
  deps: DailyEmailDeps;
  /** Brought up to date before a change of the member's own row is answered (decision 023). */
  identities?: IdentityCache;
}

export async function dailyEmailRoutes(fastify: FastifyInstance, { ctx, jobs, deps, identities }: DailyEmailRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { signer, sendHour } = deps;
  const tags = ['daily-email'];
  // Everyone's own setting, behind no gate: turning an email off must always be possible.
  // A person's own morning email: an API key is nobody's (docs/decisions/049-api-keys.md).
  const own = { access: { role: leastRole.view, gate: 'none', apiKeys: false } } as const;
  const company = { access: { role: leastRole.setup, gate: 'none' } } as const;

  // The one-click form body (RFC 8058) carries nothing but `List-Unsubscribe=One-Click`; this
  // scope reads it as an empty body, the token coming from the query.
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

  app.get(
    '/api/me/daily-email',
    {
      config: own,
      schema: {
        tags,
        operationId: 'getDailyEmail',
        summary: "The signed-in member's morning email setting and the company's time zone",
        'x-errors': ['NO_TENANT', 'NOT_FOUND'],
        response: { 200: dailyEmailSetting },
      },
    },
    async (request) => getSetting(ctx.db, request.who, sendHour),
  );
  app.put(
    '/api/me/daily-email',
    {
      config: own,
      schema: {
        tags,
        operationId: 'setDailyEmail',
        summary: 'Turn the morning email on or off for the signed-in member',
        'x-errors': ['NO_TENANT', 'NOT_FOUND'],
        body: dailyEmailBody,
        response: { 200: dailyEmailSetting },
      },
    },
    async (request) => {
      const setting = await setSetting(ctx.db, request.who, request.body.enabled, sendHour);
      await identities?.settle();
      if (setting.enabled) await jobs.scheduleNext(request.who.tenantId);
      return setting;
    },
  );
  app.put(
    '/api/company/time-zone',
    {
      config: company,
      schema: {
        tags,
        operationId: 'setCompanyTimeZone',
        summary: "Set the company's time zone, in which its days are counted (admins)",
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        body: companyTimeZoneBody,
        response: { 200: companyTimeZone },
      },
    },
    async (request) => {
      const answer = await setCompanyTimeZone(ctx.db, request.who, request.body.time_zone);
      await jobs.scheduleNext(request.who.tenantId);
      return answer;
    },
  );
  app.post(
    '/api/daily-email/unsubscribe',
    {
      config: { access: 'public', rateLimit: { max: UNSUBSCRIBES_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags,
        operationId: 'unsubscribeDailyEmail',
        summary: "Turn the morning email off from the email's link, without signing in",
        'x-errors': ['VALIDATION', 'RATE_LIMITED'],
        querystring: unsubscribeQuery,
        body: unsubscribeBody.optional(),
        response: { 200: unsubscribeResult },
      },
    },
    async (request) => unsubscribe(ctx.db, signer, request.body?.token ?? request.query.token),
  );
}
