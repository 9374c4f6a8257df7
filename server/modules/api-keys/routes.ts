/**
 * HTTP routes of a company's API keys (docs/product.md "API keys", docs/decisions/049-api-keys.md):
 * the API keys screen's list, creation and revoke. They need a browser session of an admin or
 * owner (`apiKeys: false`): a key never makes, sees or revokes keys.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiKeyList, createApiKeyBody, createdApiKey } from '../../../common/contracts/api-keys';
import { idParam } from '../../../common/contracts/fields';
import { leastRole } from '../../../common/permissions';
import type { AppContext } from '../../context';
import { noContent } from '../../lib/api-document';
import { createKey, listKeys, revokeKey } from './service';
import { connectionAccess } from '../../access';

export async function apiKeyRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['api-keys'];
  const { create, manage } = connectionAccess(leastRole.apiKeys);

  app.get(
    '/api/api-keys',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: "The company's API keys, newest first, revoked ones included (admins)",
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        response: { 200: apiKeyList },
      },
    },
    async (request) => ({ keys: await listKeys(ctx.db, request.who) }),
  );
  app.post(
    '/api/api-keys',
    {
      config: create,
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create an API key with a name and a role; the answer holds the whole key, shown this once (admins)',
        'x-errors': ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'FORBIDDEN'],
        body: createApiKeyBody,
        response: { 201: createdApiKey },
      },
    },
    async (request, reply) => reply.status(201).send(await createKey(ctx.db, request.who, request.body, ctx.now())),
  );
  app.delete(
    '/api/api-keys/:id',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key: the next request made with it is refused (admins)',
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await revokeKey(ctx.db, request.who, request.params.id, ctx.now());
      return reply.status(204).send();
    },
  );
}
