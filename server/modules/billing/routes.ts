/** HTTP routes of plans and billing. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { subscriptionStatus } from '../../../common/contracts/session';
import type { AppContext } from '../../context';
import { getSubscriptionStatus } from './service';

export async function billingRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/subscription/status',
    { schema: { tags: ['billing'], response: { 200: subscriptionStatus } } },
    async (request) => getSubscriptionStatus(ctx.db, (await ctx.tenant(request)).tenantId, ctx.now()),
  );
}
