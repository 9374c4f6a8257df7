/** HTTP routes of items (docs/product.md "Screens: Items"). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import { noContent } from '../../lib/api-document';
import { item, itemBody } from '../../../common/contracts/stock';
import type { AppContext } from '../../context';
import { createItem, deleteItem, listItems, updateItem } from './service';
import { leastRole } from '../../../common/permissions';

export async function itemRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['items'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;
  // Behind the expired-trial gate (docs/product.md "Screens: Expired-trial gate"); managing the
  // records themselves needs an admin (docs/product.md "Roles").
  const member = { access: { role: leastRole.view, gate: 'trial' } } as const;
  const admin = { access: { role: leastRole.items, gate: 'trial' } } as const;

  app.get(
    '/api/items',
    { config: member, schema: { tags, operationId: 'listItems', summary: 'The items', 'x-errors': gated, response: { 200: z.array(item) } } },
    async (request) => listItems(ctx.db, request.who),
  );
  app.post(
    '/api/items',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'createItem',
        summary: 'Create an item (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LIMIT_REACHED', 'CONFLICT'],
        body: itemBody,
        response: { 201: item },
      },
    },
    async (request, reply) => reply.status(201).send(await createItem(ctx.db, request.who, request.body, ctx.now())),
  );
  app.patch(
    '/api/items/:id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'updateItem',
        summary: 'Edit an item (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'CONFLICT'],
        params: idParam,
        body: itemBody,
        response: { 200: item },
      },
    },
    async (request) => updateItem(ctx.db, request.who, request.params.id, request.body),
  );
  app.delete(
    '/api/items/:id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'deleteItem',
        summary: 'Delete an item without stock (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'CONFLICT', 'LAST_RECORD'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await deleteItem(ctx.db, request.who, request.params.id);
      return reply.status(204).send();
    },
  );
}
