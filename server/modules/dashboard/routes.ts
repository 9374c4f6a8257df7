/** GET /api/dashboard (common/contracts/dashboard.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardResponse } from '../../../common/contracts/dashboard';
import type { AppContext } from '../../context';
import { getDashboard } from './service';

export async function dashboardRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/dashboard', { schema: { tags: ['dashboard'], response: { 200: dashboardResponse } } }, async (request) =>
    getDashboard(ctx.db, (await ctx.tenant(request)).tenantId),
  );
}
