/** HTTP routes of units — properties (SPEC.md "Units", "Add Unit", "Unit detail"). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import { addUnitStockBody, createUnitBody, stockChangeResult, unit, updateUnitBody } from '../../../common/contracts/stock';
import type { AppContext } from '../../context';
import {
  addUnitStock,
  consumeUnitStock,
  createUnit,
  deleteUnit,
  getUnit,
  listUnits,
  removeUnitStock,
  restockUnitStock,
  updateUnit,
} from './service';

const stockParams = z.object({ id: z.uuid(), itemId: z.uuid() });

export async function unitRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['units'];

  app.get('/api/units', { schema: { tags, response: { 200: z.array(unit) } } }, async (request) =>
    listUnits(ctx.db, await ctx.gatedTenant(request)),
  );
  app.post('/api/units', { schema: { tags, body: createUnitBody, response: { 201: unit } } }, async (request, reply) =>
    reply.status(201).send(await createUnit(ctx.db, await ctx.gatedTenant(request), request.body, ctx.now())),
  );
  app.get('/api/units/:id', { schema: { tags, params: idParam, response: { 200: unit } } }, async (request) =>
    getUnit(ctx.db, await ctx.gatedTenant(request), request.params.id),
  );
  app.patch('/api/units/:id', { schema: { tags, params: idParam, body: updateUnitBody, response: { 200: unit } } }, async (request) =>
    updateUnit(ctx.db, await ctx.gatedTenant(request), request.params.id, request.body),
  );
  app.delete('/api/units/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    await deleteUnit(ctx.db, await ctx.gatedTenant(request), request.params.id);
    return reply.status(204).send();
  });
  app.post(
    '/api/units/:id/inventory',
    { schema: { tags, params: idParam, body: addUnitStockBody, response: { 200: stockChangeResult } } },
    async (request) => addUnitStock(ctx.db, await ctx.gatedTenant(request), request.params.id, request.body),
  );
  app.post(
    '/api/units/:id/inventory/:itemId/consume',
    { schema: { tags, params: stockParams, response: { 200: stockChangeResult } } },
    // Gated inside the service's transaction (one transaction fewer on a hot path).
    async (request) => consumeUnitStock(ctx.db, await ctx.tenant(request), request.params.id, request.params.itemId, ctx.now()),
  );
  app.post(
    '/api/units/:id/inventory/:itemId/restock',
    { schema: { tags, params: stockParams, response: { 200: stockChangeResult } } },
    async (request) => restockUnitStock(ctx.db, await ctx.tenant(request), request.params.id, request.params.itemId, ctx.now()),
  );
  app.delete('/api/units/:id/inventory/:itemId', { schema: { tags, params: stockParams } }, async (request, reply) => {
    await removeUnitStock(ctx.db, await ctx.gatedTenant(request), request.params.id, request.params.itemId);
    return reply.status(204).send();
  });
}
