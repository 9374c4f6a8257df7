/** HTTP routes of garages — storage (docs/product.md "Screens: Garages"). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import { noContent } from '../../lib/api-document';
import { createGarageBody, garage, garageInventoryBody, updateGarageBody } from '../../../common/contracts/stock';
import type { AppContext } from '../../context';
import { createGarage, deleteGarage, listGarages, replaceGarageInventory, updateGarage } from './service';

export async function garageRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['garages'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;

  app.get(
    '/api/garages',
    {
      schema: { tags, operationId: 'listGarages', summary: 'The garages with their stock', 'x-errors': gated, response: { 200: z.array(garage) } },
    },
    async (request) => listGarages(ctx.db, await ctx.gatedTenant(request)),
  );
  app.post(
    '/api/garages',
    {
      schema: {
        tags,
        operationId: 'createGarage',
        summary: 'Create a garage with its initial stock (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LIMIT_REACHED', 'NOT_FOUND'],
        body: createGarageBody,
        response: { 201: garage },
      },
    },
    async (request, reply) => reply.status(201).send(await createGarage(ctx.db, await ctx.gatedTenant(request), request.body, ctx.now())),
  );
  app.patch(
    '/api/garages/:id',
    {
      schema: {
        tags,
        operationId: 'updateGarage',
        summary: 'Edit a garage’s name and address (admins)',
        'x-errors': [...gated, 'FORBIDDEN'],
        params: idParam,
        body: updateGarageBody,
        response: { 200: garage },
      },
    },
    async (request) => updateGarage(ctx.db, await ctx.gatedTenant(request), request.params.id, request.body),
  );
  app.put(
    '/api/garages/:id/inventory',
    {
      schema: {
        tags,
        operationId: 'replaceGarageInventory',
        summary: 'Stocktake: the garage’s stock becomes exactly these lines',
        'x-errors': gated,
        params: idParam,
        body: garageInventoryBody,
        response: { 200: garage },
      },
    },
    async (request) => replaceGarageInventory(ctx.db, await ctx.gatedTenant(request), request.params.id, request.body),
  );
  app.delete(
    '/api/garages/:id',
    {
      schema: {
        tags,
        operationId: 'deleteGarage',
        summary: 'Delete a garage, counting its stock down to 0 (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LAST_RECORD'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await deleteGarage(ctx.db, await ctx.gatedTenant(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
