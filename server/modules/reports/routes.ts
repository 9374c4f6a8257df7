/**
 * HTTP routes of the Reports screen's charts (docs/product.md "Screens: Reports"): behind the
 * expired-trial gate and the plan's `cost_reports` feature, both declared in the routes' access.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { costQuery, costReport, statusReport, type CostQuery } from '../../../common/contracts/reports';
import type { AppContext } from '../../context';
import { withTenant } from '../../db/tenant-tx';
import { coalesce } from '../../lib/coalesce';
import { sendJson } from '../../lib/send-json';
import { getCostReport } from './costs';
import { getStatusReport } from './status';
import { leastRole } from '../../../common/permissions';

export async function reportRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  // Both charts need the plan's cost_reports feature: FORBIDDEN without it.
  const reportErrors = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'FORBIDDEN'] as const;
  const config = { access: { role: leastRole.view, gate: 'trial', feature: 'cost_reports' } } as const;

  // People of one tenant opening the same report together share reads (lib/coalesce.ts): each
  // read starts after its callers asked, as of that moment, and is checked against the contract
  // and serialized once for all of them.
  const readCosts = coalesce(
    async ({ tenantId, query }: { tenantId: string; query: CostQuery }) => {
      const now = ctx.now();
      const report = await withTenant(ctx.db, tenantId, (tx) => getCostReport(tx, tenantId, query, now));
      return JSON.stringify(costReport.parse(report));
    },
    ({ tenantId, query }) => [tenantId, query.period, query.start, query.end].join(' '),
  );
  app.get('/api/reports/costs', {
      config,
      schema: {
        tags,
        operationId: 'getCostReport',
        summary: 'Cost analysis: usage cost per day and per unit',
        'x-errors': reportErrors,
        querystring: costQuery,
        response: { 200: costReport },
      },
    }, async (request, reply) =>
    sendJson(reply, await readCosts({ tenantId: request.who.tenantId, query: request.query })),
  );

  app.get('/api/reports/status', {
      config,
      schema: {
        tags,
        operationId: 'getStatusReport',
        summary: 'Stock status counts per unit and garage',
        'x-errors': reportErrors,
        response: { 200: statusReport },
      },
    }, async (request) => {
    const { tenantId } = request.who;
    return withTenant(ctx.db, tenantId, (tx) => getStatusReport(tx, tenantId));
  });
}
