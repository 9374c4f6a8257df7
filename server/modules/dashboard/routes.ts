/** GET /api/dashboard (common/contracts/dashboard.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardResponse } from '../../../common/contracts/dashboard';
import type { AppContext } from '../../context';
import { coalesce } from '../../lib/coalesce';
import { getDashboard } from './service';

export async function dashboardRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A team opening the dashboard together shares reads; each still sees its own earlier writes.
  const readDashboard = coalesce((tenantId: string) => getDashboard(ctx.db, tenantId));
  app.get('/api/dashboard', { schema: { tags: ['dashboard'], response: { 200: dashboardResponse } } }, async (request) =>
    readDashboard((await ctx.tenant(request)).tenantId),
  );
}
