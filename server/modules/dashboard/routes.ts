/** GET /api/dashboard (common/contracts/dashboard.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardResponse } from '../../../common/contracts/dashboard';
import type { AppContext } from '../../context';
import { coalesce } from '../../lib/coalesce';
import { sendJson } from '../../lib/send-json';
import { getDashboard } from './service';
import { leastRole } from '../../../common/permissions';

export async function dashboardRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A team opening the dashboard together shares reads, and each read is checked against the
  // contract and serialized once for all who share it; each caller still sees its own earlier writes.
  const readDashboard = coalesce(async (tenantId: string) =>
    JSON.stringify(dashboardResponse.parse(await getDashboard(ctx.db, tenantId))),
  );
  app.get('/api/dashboard', {
      // Not behind the expired-trial gate: the dashboard stays readable (docs/product.md
      // "Screens: Expired-trial gate").
      config: { access: { role: leastRole.view, gate: 'none' } },
      schema: {
        tags: ['dashboard'],
        operationId: 'getDashboard',
        summary: 'Counts, stock alerts and recent activity',
        'x-errors': ['NO_TENANT'],
        response: { 200: dashboardResponse },
      },
    }, async (request, reply) => {
    return sendJson(reply, await readDashboard(request.who.tenantId));
  });
}
