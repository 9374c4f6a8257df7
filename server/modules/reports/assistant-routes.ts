/**
 * HTTP route of the Reports screen's AI assistant (docs/product.md "Screens: Reports",
 * "Constants and limits"): POST /api/reports/assistant with a report type, a range in days and a
 * record count. Errors follow the one error model; the web shows 'Failed to fetch AI response.' for
 * any of them. Each company gets at most OPENAI_REPORTS_PER_MINUTE model narratives a minute (each
 * is a paid model call), counted by every server together (lib/limits.ts); past that its reports
 * come with the computed summary until the minute is over.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { assistantBody, assistantReply, type AssistantBody } from '../../../common/contracts/reports';
import type { AppContext } from '../../context';
import type { AiProvider } from '../../integrations/ai';
import { coalesce } from '../../lib/coalesce';
import { computeReport, replyWithReport } from './assistant/service';
import { leastRole } from '../../../common/permissions';

export async function assistantRoutes(fastify: FastifyInstance, opts: { ctx: AppContext; ai: AiProvider | null }): Promise<void> {
  const { ctx, ai } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Colleagues asking for the same report together share its computation (lib/coalesce.ts), as
  // of a moment after each of them asked; each gets its own narrative.
  const readReport = coalesce(
    ({ tenantId, body }: { tenantId: string; body: AssistantBody }) => computeReport(ctx.db, tenantId, body, ctx.now()),
    ({ tenantId, body }) => [tenantId, body.type, body.days, body.limit].join(' '),
  );
  const perMinute = ctx.config.openai.reportsPerMinute;
  const narratives = ctx.limits.limit({ name: 'report-narratives', points: perMinute, durationSeconds: 60 });
  app.post(
    '/api/reports/assistant',
    {
      // Behind the expired-trial gate, and a plan feature (docs/product.md "Screens: Reports").
      config: { access: { role: leastRole.view, gate: 'trial', feature: 'ai_reports' } },
      schema: {
        tags: ['reports'],
        operationId: 'askReportAssistant',
        summary: 'A report with its CSV, written up by the assistant',
        'x-errors': ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'FORBIDDEN'],
        body: assistantBody,
        response: { 200: assistantReply },
      },
    },
    async (request) => {
      const { tenantId } = request.who;
      const report = await readReport({ tenantId, body: request.body });
      return replyWithReport(ai, request.body, report, {
        onError: (err) => request.log.warn({ err }, 'AI narrative failed; answering with the computed summary'),
        takeNarrative: async () => (await narratives.take(tenantId)).allowed,
        perMinute,
      });
    },
  );
}
