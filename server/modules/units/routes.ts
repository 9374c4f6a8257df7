/**
 * HTTP routes of units — properties (docs/product.md "Screens: Units", "Screens: Add Unit",
 * "Screens: Unit detail").
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countBody, countResult } from '../../../common/contracts/count';
import { idParam } from '../../../common/contracts/fields';
import { noContent } from '../../lib/api-document';
import {
  addUnitStockBody,
  consumeUnitStockBody,
  createUnitBody,
  restockToMinimumBody,
  restockToMinimumResult,
  reverseMovementsBody,
  stockMoveResult,
  stockRowRemoval,
  transferUnitStockBody,
  unit,
  updateUnitBody,
} from '../../../common/contracts/stock';
import type { AppContext } from '../../context';
import { consume } from '../stock/commands/consume';
import { countUnit } from '../stock/commands/count';
import { deleteUnit } from '../stock/commands/locations';
import { receiveAtUnit } from '../stock/commands/receive';
import { removeUnitStock } from '../stock/commands/remove-stock-row';
import { restockToMinimum } from '../stock/commands/restock-to-minimum';
import { transferToUnit } from '../stock/commands/transfer-to-unit';
import { answerOnce } from '../../lib/idempotency';
import { createUnit, getUnit, listUnits, reverseMovements, updateUnit } from './service';
import { leastRole } from '../../../common/permissions';

const stockParams = z.object({ id: z.uuid(), itemId: z.uuid() });

export async function unitRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['units'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;
  // Behind the expired-trial gate (docs/product.md "Screens: Expired-trial gate"); managing the
  // records themselves needs an admin (docs/product.md "Roles").
  const member = { access: { role: leastRole.view, gate: 'trial' } } as const;
  const admin = { access: { role: leastRole.properties, gate: 'trial' } } as const;
  const stock = { access: { role: leastRole.stock, gate: 'trial' } } as const;

  app.get(
    '/api/units',
    {
      config: member,
      schema: { tags, operationId: 'listUnits', summary: 'The units with their stock', 'x-errors': gated, response: { 200: z.array(unit) } },
    },
    async (request) => listUnits(ctx.db, request.who),
  );
  app.post(
    '/api/units',
    {
      config: { ...admin, idempotent: true },
      schema: {
        tags,
        operationId: 'createUnit',
        summary: 'Add a unit with its initial stock (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LIMIT_REACHED', 'NOT_FOUND'],
        body: createUnitBody,
        response: { 201: unit },
      },
    },
    async (request, reply) => reply.status(201).send(await createUnit(ctx.db, request.who, request.body, ctx.now())),
  );
  app.get(
    '/api/units/:id',
    {
      config: member,
      schema: { tags, operationId: 'getUnit', summary: 'One unit with its stock', 'x-errors': gated, params: idParam, response: { 200: unit } },
    },
    async (request) => getUnit(ctx.db, request.who, request.params.id),
  );
  app.patch(
    '/api/units/:id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'updateUnit',
        summary: 'Edit a unit or assign its garage (admins)',
        'x-errors': [...gated, 'FORBIDDEN'],
        params: idParam,
        body: updateUnitBody,
        response: { 200: unit },
      },
    },
    async (request) => updateUnit(ctx.db, request.who, request.params.id, request.body),
  );
  app.delete(
    '/api/units/:id',
    {
      config: { ...admin, idempotent: true },
      schema: {
        tags,
        operationId: 'deleteUnit',
        summary: 'Delete a unit, counting its stock down to 0 (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LAST_RECORD'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await deleteUnit(ctx.db, request.who, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/units/:id/inventory',
    {
      config: { ...stock, idempotent: true },
      schema: {
        tags,
        operationId: 'addUnitStock',
        summary: 'Add Manually, received from outside: add a quantity of an item to the unit',
        'x-errors': gated,
        params: idParam,
        body: addUnitStockBody,
        response: { 200: stockMoveResult },
      },
    },
    async (request) => receiveAtUnit(ctx.db, request.who, request.params.id, request.body),
  );
  app.post(
    '/api/units/:id/inventory/:itemId/consume',
    {
      config: { ...stock, idempotent: 'in-write' },
      schema: {
        tags,
        operationId: 'consumeUnitStock',
        summary: 'Minus button: n used, 1 unless told (never below 0)',
        'x-errors': gated,
        params: stockParams,
        // The body is optional (one used): Fastify passes null for a request without one.
        body: consumeUnitStockBody.nullish(),
        response: { 200: stockMoveResult },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, (key) => consume(ctx.db, request.who, request.params.id, request.params.itemId, request.body?.quantity ?? 1, key)),
  );
  app.post(
    '/api/units/:id/inventory/:itemId/transfer',
    {
      config: { ...stock, idempotent: 'in-write' },
      schema: {
        tags,
        operationId: 'transferUnitStock',
        summary: 'Plus button (its quick taps added up), restock by quantity, or Add Manually from the garage: move n from the unit’s garage in one transfer',
        'x-errors': [...gated, 'CONFLICT'],
        params: stockParams,
        body: transferUnitStockBody,
        response: { 200: stockMoveResult },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, (key) => transferToUnit(ctx.db, request.who, request.params.id, request.params.itemId, request.body.quantity, key)),
  );
  app.post(
    '/api/units/:id/restock-to-minimum',
    {
      config: { ...stock, idempotent: 'in-write' },
      schema: {
        tags,
        operationId: 'restockUnitToMinimum',
        summary: 'Restock to minimum: fill the unit’s low rows (or one row) from its garage, as far as it holds',
        'x-errors': [...gated, 'CONFLICT'],
        params: idParam,
        // The body is optional: Fastify passes null for a request without one.
        body: restockToMinimumBody.nullish(),
        response: { 200: restockToMinimumResult },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, (key) => restockToMinimum(ctx.db, request.who, request.params.id, request.body?.item_id, key)),
  );
  app.delete(
    '/api/units/:id/inventory/:itemId',
    {
      config: { ...stock, idempotent: true },
      schema: {
        tags,
        operationId: 'removeUnitStock',
        summary: 'Remove an item from the unit, counting it down to 0',
        'x-errors': gated,
        params: stockParams,
        response: { 200: stockRowRemoval },
      },
    },
    async (request) => removeUnitStock(ctx.db, request.who, request.params.id, request.params.itemId),
  );
  app.post(
    '/api/units/:id/movements/reverse',
    {
      config: { ...stock, idempotent: true },
      schema: {
        tags,
        operationId: 'reverseUnitStockChanges',
        summary: 'Undo: write the reverse of stock changes of the unit, all or none',
        'x-errors': [...gated, 'CONFLICT'],
        params: idParam,
        body: reverseMovementsBody,
        response: { 200: unit },
      },
    },
    async (request) => reverseMovements(ctx.db, request.who, request.params.id, request.body.movement_ids),
  );
  app.post(
    '/api/units/:id/count',
    {
      config: { ...member, idempotent: true },
      schema: {
        tags,
        operationId: 'countUnit',
        summary: 'Count mode: the counted lines become the unit’s stock, all or none',
        'x-errors': [...gated, 'CONFLICT'],
        params: idParam,
        body: countBody,
        response: { 200: countResult },
      },
    },
    async (request) => countUnit(ctx.db, request.who, request.params.id, request.body),
  );
}
