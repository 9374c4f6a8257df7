/**
 * HTTP route of the Reports screen's AI assistant (SPEC.md "Reports", §9): POST
 * /api/reports/assistant with a report type, a range in days and a record count. Errors follow
 * the one error model; the web shows 'Failed to fetch AI response.' for any of them.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { assistantBody, assistantReply } from '../../../common/contracts/reports';
import type { AppContext } from '../../context';
import type { AiProvider } from '../../integrations/ai';
import { runAssistant } from './assistant/service';

export async function assistantRoutes(fastify: FastifyInstance, opts: { ctx: AppContext; ai: AiProvider | null }): Promise<void> {
  const { ctx, ai } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/reports/assistant',
    { schema: { tags: ['reports'], body: assistantBody, response: { 200: assistantReply } } },
    async (request) => {
      const who = await ctx.tenant(request);
      return runAssistant(ctx.db, ai, who.tenantId, request.body, ctx.now(), (err) =>
        request.log.warn({ err }, 'AI narrative failed; answering with the computed summary'),
      );
    },
  );
}
