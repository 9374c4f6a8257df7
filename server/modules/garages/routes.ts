/** HTTP routes of garages — storage (SPEC.md "Garages"). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import { createGarageBody, garage, garageInventoryBody, updateGarageBody } from '../../../common/contracts/stock';
import type { AppContext } from '../../context';
import { createGarage, deleteGarage, listGarages, replaceGarageInventory, updateGarage } from './service';

export async function garageRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['garages'];

  app.get('/api/garages', { schema: { tags, response: { 200: z.array(garage) } } }, async (request) =>
    listGarages(ctx.db, await ctx.gatedTenant(request)),
  );
  app.post('/api/garages', { schema: { tags, body: createGarageBody, response: { 201: garage } } }, async (request, reply) =>
    reply.status(201).send(await createGarage(ctx.db, await ctx.gatedTenant(request), request.body, ctx.now())),
  );
  app.patch(
    '/api/garages/:id',
    { schema: { tags, params: idParam, body: updateGarageBody, response: { 200: garage } } },
    async (request) => updateGarage(ctx.db, await ctx.gatedTenant(request), request.params.id, request.body),
  );
  app.put(
    '/api/garages/:id/inventory',
    { schema: { tags, params: idParam, body: garageInventoryBody, response: { 200: garage } } },
    async (request) => replaceGarageInventory(ctx.db, await ctx.gatedTenant(request), request.params.id, request.body),
  );
  app.delete('/api/garages/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    await deleteGarage(ctx.db, await ctx.gatedTenant(request), request.params.id);
    return reply.status(204).send();
  });
}
