/**
 * HTTP routes of a company's webhook endpoints (docs/product.md "Webhooks",
 * docs/decisions/050-webhooks.md): the webhooks screen's list, creation, change and deletion of
 * endpoints, an endpoint's delivery log, Resend and the test event. They need a browser session
 * of an admin or owner (`apiKeys: false`): like API keys, endpoints and their secrets are never
 * managed with a key.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../../common/contracts/fields';
import {
  createWebhookEndpointAnswer,
  createWebhookEndpointBody,
  updateWebhookEndpointAnswer,
  updateWebhookEndpointBody,
  webhookDeliveryAnswer,
  webhookDeliveryList,
  webhookDeliveryParams,
  webhookEndpointList,
} from '../../../common/contracts/webhooks';
import { leastRole } from '../../../common/permissions';
import { noContent } from '../../lib/api-document';
import type { WebhookEndpoint } from '../../../common/contracts/webhooks';
import type { TenantIdentity } from '../auth/identity';
import type { WebhookDeps } from './delivery';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, resendDelivery, sendTestEvent, updateEndpoint } from './service';
import { connectionAccess } from '../../access';

export interface WebhookRouteOptions {
  deps: WebhookDeps;
  /**
   * The company's morning job (daily-email/jobs.ts), which also records `forecast.short`: an
   * enabled endpoint receiving that event makes the company want its mornings, so saving one
   * schedules the next (at most one a company and day).
   */
  mornings: { scheduleNext(tenantId: string): Promise<void> };
}

/** Registers the routes (module comment). */
export async function webhookRoutes(fastify: FastifyInstance, { deps, mornings }: WebhookRouteOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** `endpoint` as saved, after its company's next morning is scheduled when it receives forecast.short. */
  const withMornings = async <T extends { endpoint: WebhookEndpoint }>(who: TenantIdentity, saved: T): Promise<T> => {
    if (saved.endpoint.status === 'enabled' && saved.endpoint.events.includes('forecast.short')) await mornings.scheduleNext(who.tenantId);
    return saved;
  };
  const tags = ['webhooks'];
  const { create, manage } = connectionAccess(leastRole.webhooks);

  app.get(
    '/api/webhooks',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: "The company's webhook endpoints, oldest first (admins)",
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        response: { 200: webhookEndpointList },
      },
    },
    async (request) => ({ endpoints: await listEndpoints(deps, request.who) }),
  );
  app.post(
    '/api/webhooks',
    {
      config: create,
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Add a webhook endpoint with its events; the answer holds its signing secret, shown this once (admins)',
        'x-errors': ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'FORBIDDEN', 'CONFLICT'],
        body: createWebhookEndpointBody,
        response: { 201: createWebhookEndpointAnswer },
      },
    },
    async (request, reply) => reply.status(201).send(await withMornings(request.who, await createEndpoint(deps, request.who, request.body))),
  );
  app.patch(
    '/api/webhooks/:id',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary: "Change a webhook endpoint's URL, description or events, or enable or disable it (admins)",
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        params: idParam,
        body: updateWebhookEndpointBody,
        response: { 200: updateWebhookEndpointAnswer },
      },
    },
    async (request) => withMornings(request.who, { endpoint: await updateEndpoint(deps, request.who, request.params.id, request.body) }),
  );
  app.delete(
    '/api/webhooks/:id',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint and its delivery log (admins)',
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(deps, request.who, request.params.id);
      return reply.status(204).send();
    },
  );
  app.get(
    '/api/webhooks/:id/deliveries',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "A webhook endpoint's last 100 deliveries, newest first, with each one's last attempt (admins)",
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        params: idParam,
        response: { 200: webhookDeliveryList },
      },
    },
    async (request) => ({ deliveries: await listDeliveries(deps, request.who, request.params.id) }),
  );
  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/resend',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'resendWebhookDelivery',
        summary: 'Resend a delivery now, with the same webhook-id; the answer shows how the attempt went (admins)',
        'x-errors': ['NO_TENANT', 'FORBIDDEN', 'CONFLICT'],
        params: webhookDeliveryParams,
        response: { 200: webhookDeliveryAnswer },
      },
    },
    async (request) => ({ delivery: await resendDelivery(deps, request.who, request.params.id, request.params.deliveryId) }),
  );
  app.post(
    '/api/webhooks/:id/test',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'sendWebhookTestEvent',
        summary: 'Send a webhook.test event to this endpoint alone, now; the answer shows how the attempt went (admins)',
        'x-errors': ['NO_TENANT', 'FORBIDDEN', 'CONFLICT'],
        params: idParam,
        response: { 200: webhookDeliveryAnswer },
      },
    },
    async (request) => ({ delivery: await sendTestEvent(deps, request.who, request.params.id) }),
  );
}
