/** GET /api/me: the signed-in user, their tenant and role (common/contracts/session.ts). */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { meResponse } from '../../../common/contracts/session';
import type { AppContext } from '../../context';
import { tenants } from '../../db/schema/auth';
import { withTenant } from '../../db/tenant-tx';

export async function sessionRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/me',
    {
      config: { access: 'session' },
      schema: { tags: ['session'], operationId: 'getMe', summary: 'The signed-in user, their company and role', response: { 200: meResponse } },
    },
    async (request) => {
      const who = request.identity;
      const tenant = who.tenantId
        ? ((
            await withTenant(ctx.db, who.tenantId, (tx) =>
              tx.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, who.tenantId!)),
            )
          )[0] ?? null)
        : null;
      return { user: { id: who.userId, email: who.email }, tenant, role: who.role };
    },
  );
}
