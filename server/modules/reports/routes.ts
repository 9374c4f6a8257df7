/**
 * HTTP routes of the Reports screen's charts (SPEC.md "Reports"): behind the expired-trial gate
 * and the plan's `cost_reports` feature.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { costQuery, costReport, statusReport } from '../../../common/contracts/reports';
import type { AppContext } from '../../context';
import { withTenant } from '../../db/tenant-tx';
import { assertFeature } from '../billing/plans';
import { getCostReport } from './costs';
import { getStatusReport } from './status';

export async function reportRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];

  app.get('/api/reports/costs', { schema: { tags, querystring: costQuery, response: { 200: costReport } } }, async (request) => {
    const who = await ctx.tenant(request);
    const now = ctx.now();
    return withTenant(ctx.db, who.tenantId, async (tx) => {
      await assertFeature(tx, who.tenantId, 'cost_reports', now);
      return getCostReport(tx, who.tenantId, request.query, now);
    });
  });

  app.get('/api/reports/status', { schema: { tags, response: { 200: statusReport } } }, async (request) => {
    const who = await ctx.tenant(request);
    const now = ctx.now();
    return withTenant(ctx.db, who.tenantId, async (tx) => {
      await assertFeature(tx, who.tenantId, 'cost_reports', now);
      return getStatusReport(tx, who.tenantId);
    });
  });
}
