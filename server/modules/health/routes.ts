/**
 * GET /api/health and GET /api/ready (common/contracts/health.ts, decision 010). Health says the
 * process answers and asks the database nothing, so a supervisor restarts only a dead process;
 * ready says requests can be served (database reachable, latest migration applied), so a load
 * balancer sends traffic only then. Both are public.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponse, readyResponse } from '../../../common/contracts/health';
import type { AppContext } from '../../context';
import { DATABASE_UNAVAILABLE_MESSAGE, loggableError, RETRY_AFTER_SECONDS } from '../../lib/db-errors';
import { AppError } from '../../lib/errors';
import { latestMigration, readiness } from './service';

const tags = ['health'];

export async function healthRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const latest = latestMigration();

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags, operationId: 'health', summary: 'Check that the server answers', response: { 200: healthResponse } },
    },
    async () => ({ ok: true as const }),
  );

  app.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        tags,
        operationId: 'ready',
        summary: 'Check that the server can serve requests: database reachable and migrated',
        response: { 200: readyResponse },
      },
    },
    async (request, reply) => {
      const state = await readiness(ctx.db, latest);
      if (state.ready) return { ok: true as const, migration: latest.tag };
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      if (state.problem === 'behind') {
        throw new AppError('UNAVAILABLE', 'The database is not up to date yet. Please try again in a moment.');
      }
      request.log.warn({ error: loggableError(state.error) }, 'not ready: database unavailable');
      throw new AppError('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
    },
  );
}
