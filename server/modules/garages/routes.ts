/** HTTP routes of garages — storage (docs/product.md "Screens: Garages"). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countBody, countResult } from '../../../common/contracts/count';
import { idParam } from '../../../common/contracts/fields';
import { noContent } from '../../lib/api-document';
import { createGarageBody, garage, garageInventoryBody, updateGarageBody } from '../../../common/contracts/stock';
import type { AppContext } from '../../context';
import { countGarage } from '../stock/commands/count';
import { deleteGarage } from '../stock/commands/locations';
import { createGarage, listGarages, replaceGarageInventory, updateGarage } from './service';
import { leastRole } from '../../../common/permissions';

export async function garageRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['garages'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;
  // Behind the expired-trial gate (docs/product.md "Screens: Expired-trial gate"); managing the
  // records themselves needs an admin (docs/product.md "Roles").
  const member = { access: { role: leastRole.view, gate: 'trial' } } as const;
  const admin = { access: { role: leastRole.storage, gate: 'trial' } } as const;
  const stock = { access: { role: leastRole.stock, gate: 'trial' } } as const;

  app.get(
    '/api/garages',
    {
      config: member,
      schema: { tags, operationId: 'listGarages', summary: 'The garages with their stock', 'x-errors': gated, response: { 200: z.array(garage) } },
    },
    async (request) => listGarages(ctx.db, request.who),
  );
  app.post(
    '/api/garages',
    {
      config: { ...admin, idempotent: true },
      schema: {
        tags,
        operationId: 'createGarage',
        summary: 'Create a garage with its initial stock (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LIMIT_REACHED', 'NOT_FOUND'],
        body: createGarageBody,
        response: { 201: garage },
      },
    },
    async (request, reply) => reply.status(201).send(await createGarage(ctx.db, request.who, request.body, ctx.now())),
  );
  app.patch(
    '/api/garages/:id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'updateGarage',
        summary: 'Edit a garage’s name, address and lead time (admins)',
        'x-errors': [...gated, 'FORBIDDEN'],
        params: idParam,
        body: updateGarageBody,
        response: { 200: garage },
      },
    },
    async (request) => updateGarage(ctx.db, request.who, request.params.id, request.body),
  );
  app.put(
    '/api/garages/:id/inventory',
    {
      config: { ...stock, idempotent: true },
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
    async (request) => replaceGarageInventory(ctx.db, request.who, request.params.id, request.body),
  );
  app.post(
    '/api/garages/:id/count',
    {
      config: { ...member, idempotent: true },
      schema: {
        tags,
        operationId: 'countGarage',
        summary: 'Count mode: the counted lines become the garage’s stock, all or none',
        'x-errors': [...gated, 'CONFLICT'],
        params: idParam,
        body: countBody,
        response: { 200: countResult },
      },
    },
    async (request) => countGarage(ctx.db, request.who, request.params.id, request.body),
  );
  app.delete(
    '/api/garages/:id',
    {
      config: { ...admin, idempotent: true },
      schema: {
        tags,
        operationId: 'deleteGarage',
        summary: 'Delete a garage that holds no stock and no property (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LAST_RECORD', 'CONFLICT'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await deleteGarage(ctx.db, request.who, request.params.id);
      return reply.status(204).send();
    },
  );
}
