/**
 * buildApp: registers plugins and modules on a Fastify instance and returns it; never listens
 * (docs/ARCHITECTURE.md "The parts"). main.ts listens; tests call `app.inject`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { installAccess } from './access';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Db } from './db/client';
import { createAi, type AiProvider } from './integrations/ai';
import { createStripeBilling, type BillingProvider } from './integrations/billing';
import { createMailer, type Mailer } from './integrations/mail';
import { apiDocumentOptions } from './lib/api-document';
import { answerClientError, answerFrameworkError, installErrorHandler } from './lib/error-handler';
import { AppError } from './lib/errors';
import { installIdempotency } from './lib/idempotency';
import { openLimits, rateLimitStore } from './lib/limits';
import { originGuard } from './lib/origin-guard';
import { installRequestIdHeader, requestId } from './lib/request-id';
import { installRequestLog } from './lib/request-log';
import { installSecurityHeaders } from './lib/security-headers';
import { webStaticOptions } from './lib/web-assets';
import { createAuth } from './modules/auth/auth';
import type { IdentityCache } from './modules/auth/identity-cache';
import { authRoutes } from './modules/auth/routes';
import { forwardSessionCookies } from './modules/auth/session';
import { billingRoutes } from './modules/billing/routes';
import { dashboardRoutes } from './modules/dashboard/routes';
import { garageRoutes } from './modules/garages/routes';
import { healthRoutes } from './modules/health/routes';
import { itemRoutes } from './modules/items/routes';
import { onboardingRoutes } from './modules/onboarding/routes';
import { assistantRoutes } from './modules/reports/assistant-routes';
import { reportRoutes } from './modules/reports/routes';
import { scanRoutes } from './modules/scans/routes';
import { sessionRoutes } from './modules/session/routes';
import { installStrictQueries } from './lib/strict-queries';
import { teamRoutes } from './modules/team/routes';
import { apiKeyRoutes } from './modules/api-keys/routes';
import type { WebhookDeps } from './modules/webhooks/delivery';
import { startWebhookDeliveries } from './modules/webhooks/jobs';
import { webhookRoutes } from './modules/webhooks/routes';
import { unitRoutes } from './modules/units/routes';
import { forecastRoutes } from './modules/forecast/routes';
import { calendarRoutes } from './modules/calendars/routes';
import { listingsImportRoutes } from './modules/listings-import/routes';
import { inlineDailyEmailJobs, queuedDailyEmailJobs } from './modules/daily-email/jobs';
import { dailyEmailRoutes } from './modules/daily-email/routes';
import type { DailyEmailDeps } from './modules/daily-email/service';
import { unsubscribeSigner } from './modules/daily-email/unsubscribe-token';
import type { HostawayDeps } from './modules/listings-import/credentials';
import { inlineJobs, queuedJobs } from './modules/listings-import/sync-jobs';
import type { JobQueue } from './jobs/queue';
import { createHostawayClient } from './integrations/hostaway';
import { secretBox } from './lib/secret-box';

export interface BuildAppOptions {
  /** Configuration; `appSecret` must be resolved (main.ts generates one for the embedded database). */
  config: Config & { appSecret: string };
  db: Db;
  mailer?: Mailer;
  /** Billing provider; default: Stripe when configured, else none (billing off). */
  billing?: BillingProvider | null;
  /** AI provider; default: OpenAI when OPENAI_API_KEY is set, else none (computed summaries, no photo scanner). */
  ai?: AiProvider | null;
  now?: () => Date;
  /** Auth POSTs allowed per IP per minute (default 30). */
  authRateLimitPerMinute?: number;
  /** Directory of the built web app to serve; omitted or missing -> API only. */
  webRoot?: string;
  /**
   * The server log (lib/request-log.ts `createServerLogger`), which gets one line per request and
   * better-auth's messages; default none.
   */
  logger?: FastifyBaseLogger | false;
  /**
   * Identities of live sessions kept in memory, fed by the database's change notifications
   * (modules/auth/identity-cache.ts); without it every request reads its own.
   */
  identities?: IdentityCache;
  /**
   * The started job queue (jobs/queue.ts): background work (the Hostaway sync) runs through it.
   * Without it that work runs inside the request that asks for it (tests of the routes).
   */
  jobs?: JobQueue;
  /** Called for every route as it is registered (tests list the routes to probe them). */
  onRoute?: (route: RouteOptions) => void;
}

/** Largest JSON body accepted, in bytes; larger answers 413. */
export const BODY_LIMIT = 1024 * 1024;

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger, logController: new LogController({ disableRequestLogging: true }) } : { logger: false }),
    // Ids unique across server processes, or the balancer's (lib/request-id.ts).
    genReqId: requestId,
    bodyLimit: BODY_LIMIT,
    trustProxy: opts.config.trustProxy,
    // Answers Fastify and Node write themselves, in the standard error shape (decision 015).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
  });
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  if (opts.logger) installRequestLog(app);
  installRequestIdHeader(app);
  app.setValidatorCompiler(validatorCompiler);
  installStrictQueries(app);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  const mailer = opts.mailer ?? createMailer({ smtpUrl: opts.config.smtpUrl, from: opts.config.mailFrom, log: app.log });
  const { stripe } = opts.config;
  const billing =
    opts.billing !== undefined
      ? opts.billing
      : stripe.secretKey && stripe.webhookSecret
        ? createStripeBilling({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.apiBase })
        : null;
  const limits = openLimits(opts.db);
  const auth = createAuth({ db: opts.db, secret: opts.config.appSecret, appUrl: opts.config.appUrl, mailer, limits, log: opts.logger ? app.log : undefined });
  const ctx: AppContext = {
    db: opts.db,
    auth,
    config: opts.config,
    mailer,
    limits,
    now: opts.now ?? (() => new Date()),
  };
  installAccess(app, {
    auth,
    db: opts.db,
    now: ctx.now,
    identities: opts.identities,
    apiKeyLimit: { limits, perMinute: opts.config.apiKeyRequestsPerMinute },
  });
  installIdempotency(app, opts.db);

  installSecurityHeaders(app);
  // Answers of 1 KiB or more go out compressed (brotli quality 4, or gzip) when the client
  // accepts it; the web app's files come precompressed from the build (decision 016).
  await app.register(compress, { threshold: 1024 });
  // Only routes with their own `config.rateLimit` are limited, counted in the shared limits.
  await app.register(rateLimit, { global: false, store: rateLimitStore(limits) });
  await app.register(swagger, apiDocumentOptions(opts.config.appUrl));
  await app.register(async (docs) => {
    // The API document and its reference page are public (decision 015); their routes are
    // @fastify/swagger-ui's, so their access is declared here.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });

  app.addHook('onRequest', originGuard(opts.config.appUrl));
  app.addHook('onSend', forwardSessionCookies);
  await app.register(healthRoutes, ctx);
  await app.register(authRoutes, {
    auth,
    db: opts.db,
    appUrl: opts.config.appUrl,
    rateLimitPerMinute: opts.authRateLimitPerMinute ?? 30,
    identities: opts.identities,
  });
  await app.register(sessionRoutes, ctx);
  await app.register(onboardingRoutes, ctx);
  await app.register(billingRoutes, { ctx, billing });
  await app.register(dashboardRoutes, ctx);
  await app.register(itemRoutes, ctx);
  await app.register(garageRoutes, ctx);
  await app.register(unitRoutes, ctx);
  await app.register(reportRoutes, ctx);
  await app.register(forecastRoutes, { ctx, jobs: opts.jobs });
  const { hostaway } = opts.config;
  const hostawayDeps: HostawayDeps = {
    db: opts.db,
    client: createHostawayClient({ baseUrl: hostaway.apiBase, timeoutMs: hostaway.timeoutMs, pageSize: hostaway.pageSize }),
    box: secretBox(opts.config.appSecret, 'provider-credentials'),
    now: ctx.now,
    tokenSettleMs: 1000,
  };
  const jobs = opts.jobs ? await queuedJobs(opts.jobs, hostawayDeps, hostaway.syncMinutes) : inlineJobs(hostawayDeps);
  await app.register(listingsImportRoutes, { deps: hostawayDeps, jobs, appUrl: opts.config.appUrl });
  const dailyEmail: DailyEmailDeps = {
    db: opts.db,
    mailer,
    signer: unsubscribeSigner(opts.config.appSecret),
    appUrl: opts.config.appUrl,
    sendHour: opts.config.dailyEmailHour,
  };
  const dailyEmailJobs = opts.jobs ? await queuedDailyEmailJobs(opts.jobs, dailyEmail, ctx.now) : inlineDailyEmailJobs;
  await app.register(dailyEmailRoutes, { ctx, jobs: dailyEmailJobs, deps: dailyEmail, identities: opts.identities });
  await app.register(calendarRoutes, { ctx, queue: opts.jobs });
  const ai = opts.ai !== undefined ? opts.ai : createAi(opts.config.openai);
  await app.register(teamRoutes, { ctx, identities: opts.identities });
  await app.register(apiKeyRoutes, ctx);
  const { webhooks } = opts.config;
  const webhookDeps: WebhookDeps = {
    db: opts.db,
    box: secretBox(opts.config.appSecret, 'webhook-secrets'),
    mailer,
    appUrl: opts.config.appUrl,
    now: ctx.now,
    post: { timeoutMs: webhooks.timeoutMs, maxResponseBytes: 64 * 1024, allowLoopback: webhooks.allowLoopback },
  };
  if (opts.jobs) await startWebhookDeliveries(opts.jobs, webhookDeps, webhooks.pollSeconds);
  await app.register(webhookRoutes, { deps: webhookDeps, mornings: dailyEmailJobs });
  await app.register(assistantRoutes, { ctx, ai });
  await app.register(scanRoutes, { ctx, ai });

  const webRoot = opts.webRoot && existsSync(join(opts.webRoot, 'index.html')) ? opts.webRoot : undefined;
  if (webRoot) await app.register(fastifyStatic, webStaticOptions(webRoot));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // SPA fallback only for page paths: a missing .js/.css must be a 404, never index.html.
    if (webRoot && request.method === 'GET' && !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path)) {
      return reply.type('text/html').sendFile('index.html');
    }
    throw new AppError('NOT_FOUND', 'Not found');
  });
  return app;
}
