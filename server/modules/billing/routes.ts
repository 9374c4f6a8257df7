/**
 * HTTP routes of plans and billing (docs/product.md "Screens: Subscription",
 * "Plans, trial and limits").
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutBody, redirectUrl, tier, usage } from '../../../common/contracts/billing';
import { subscriptionStatus } from '../../../common/contracts/session';
import type { AppContext } from '../../context';
import { withTenant } from '../../db/tenant-tx';
import type { BillingProvider } from '../../integrations/billing';
import { AppError } from '../../lib/errors';
import { openPortal, startCheckout } from './checkout';
import { getUsage, listTiers } from './plans';
import { getSubscriptionStatus } from './service';
import { applyBillingEvent } from './webhook';
import { leastRole } from '../../../common/permissions';

export async function billingRoutes(fastify: FastifyInstance, opts: { ctx: AppContext; billing: BillingProvider | null }): Promise<void> {
  const { ctx, billing } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const checkoutErrors = ['NO_TENANT', 'FORBIDDEN', 'CONFLICT', 'PROVIDER_ERROR', 'BILLING_NOT_CONFIGURED'] as const;
  // Billing is how an expired trial ends, so none of it is behind the gate (docs/product.md
  // "Screens: Expired-trial gate").
  const member = { access: { role: leastRole.view, gate: 'none' } } as const;
  const owner = { access: { role: leastRole.billing, gate: 'none' } } as const;

  app.get(
    '/api/subscription/status',
    {
      config: member,
      schema: {
        tags,
        operationId: 'getSubscriptionStatus',
        summary: 'Subscription and trial status',
        'x-errors': ['NO_TENANT'],
        response: { 200: subscriptionStatus },
      },
    },
    async (request) => getSubscriptionStatus(ctx.db, request.who.tenantId, ctx.now()),
  );
  app.get(
    '/api/subscription/tiers',
    { config: { access: 'session' }, schema: { tags, operationId: 'listTiers', summary: 'The plans, by price', response: { 200: z.array(tier) } } },
    async () => listTiers(ctx.db),
  );
  app.get(
    '/api/subscription/usage',
    {
      config: member,
      schema: {
        tags,
        operationId: 'getUsage',
        summary: 'Plan limits, usage and what is left',
        'x-errors': ['NO_TENANT'],
        response: { 200: usage },
      },
    },
    async (request) => {
      const { tenantId } = request.who;
      return withTenant(ctx.db, tenantId, (tx) => getUsage(tx, tenantId, ctx.now()));
    },
  );
  app.post(
    '/api/subscription/checkout',
    {
      config: owner,
      schema: {
        tags,
        operationId: 'startCheckout',
        summary: 'Start a subscription checkout (owners)',
        'x-errors': [...checkoutErrors, 'NOT_FOUND'],
        body: checkoutBody,
        response: { 200: redirectUrl },
      },
    },
    async (request) => ({
      url: await startCheckout(ctx.db, billing, request.who, request.body, {
        appUrl: ctx.config.appUrl,
        prices: ctx.config.stripe.prices,
      }),
    }),
  );
  app.post(
    '/api/subscription/portal',
    {
      config: owner,
      schema: {
        tags,
        operationId: 'openBillingPortal',
        summary: 'Open the billing portal (owners)',
        'x-errors': checkoutErrors,
        response: { 200: redirectUrl },
      },
    },
    async (request) => ({
      url: await openPortal(ctx.db, billing, request.who, ctx.config.appUrl),
    }),
  );

  // The signature covers the exact bytes sent, so this route keeps the raw body.
  await app.register(async (raw) => {
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    raw.post(
      '/api/billing/webhook',
      {
        // Stripe calls it without a session; the signature is its authentication.
        config: { access: 'public', inbound: true },
        schema: {
          tags,
          operationId: 'receiveBillingEvent',
          summary: 'Stripe webhook: apply a signed billing event once',
          description: 'The body is Stripe’s event as sent, verified against the `stripe-signature` header.',
          'x-errors': ['VALIDATION', 'BILLING_NOT_CONFIGURED'],
          response: { 200: z.object({ received: z.literal(true), outcome: z.enum(['applied', 'duplicate', 'ignored']) }) },
        },
      },
      async (request) => {
        if (!billing) throw new AppError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this server');
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
          throw new AppError('VALIDATION', 'Missing webhook signature');
        }
        let event;
        try {
          event = billing.verifyEvent(request.body, signature);
        } catch {
          throw new AppError('VALIDATION', 'Invalid webhook signature');
        }
        const outcome = await applyBillingEvent(ctx.db, event, ctx.config.stripe.prices);
        request.log.info({ event: event.id, type: event.type, outcome }, 'billing event');
        return { received: true as const, outcome };
      },
    );
  });
}
