/**
 * HTTP routes of the Hostaway import (docs/product.md "Import from Hostaway"): the connection,
 * the account's listings and their import as units, the webhook credentials — admins and owners
 * only, behind the expired-trial gate and the plan feature `listing_import`; Hostaway's webhook
 * (public, HTTP Basic); and a unit's upcoming stays (members).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import {
  upcomingStay,
  webhookCredentials,
  hostawayConnectBody,
  hostawayConnection,
  hostawayListing,
  importListingsBody,
  importListingsResult,
} from '../../../common/contracts/listings-import';
import { noContent } from '../../lib/api-document';
import { connect, disconnect, type HostawayDeps } from './credentials';
import { upcomingStays } from './reservations';
import { fetchListings, importListings } from './service';
import type { HostawayJobs } from './sync-jobs';
import { firstDelivery, generateWebhookCredentials, reservationIdOf, WEBHOOK_PATH, webhookTenant } from './webhook';
import { connectionState } from './credentials';

export async function listingsImportRoutes(
  fastify: FastifyInstance,
  { deps, jobs, appUrl }: { deps: HostawayDeps; jobs: HostawayJobs; appUrl: string },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['hostaway'];
  const refusals = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'FORBIDDEN'] as const;
  const admin = { access: { role: 'admin', gate: 'trial', feature: 'listing_import' } } as const;

  app.get(
    '/api/hostaway/connection',
    {
      config: admin,
      schema: { tags, operationId: 'getHostawayConnection', summary: 'Whether the company is connected to Hostaway, and its sync state (admins)', 'x-errors': refusals, response: { 200: hostawayConnection } },
    },
    async (request) => connectionState(deps, request.who.tenantId, `${appUrl}${WEBHOOK_PATH}`),
  );
  app.put(
    '/api/hostaway/connection',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'connectHostaway',
        summary: 'Connect the company to a Hostaway account with its Client ID and Client Secret (admins)',
        'x-errors': [...refusals, 'PROVIDER_ERROR'],
        body: hostawayConnectBody,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await connect(deps, request.who.tenantId, request.body.client_id, request.body.client_secret);
      await jobs.syncSoon(request.who.tenantId);
      return reply.status(204).send();
    },
  );
  app.delete(
    '/api/hostaway/connection',
    {
      config: admin,
      schema: { tags, operationId: 'disconnectHostaway', summary: 'Forget the Hostaway credentials (admins); imported units stay', 'x-errors': refusals, response: { 204: noContent } },
    },
    async (request, reply) => {
      await disconnect(deps, request.who.tenantId);
      return reply.status(204).send();
    },
  );
  app.get(
    '/api/hostaway/listings',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'listHostawayListings',
        summary: 'The listings of the connected Hostaway account, marked when already imported (admins)',
        'x-errors': [...refusals, 'CONFLICT', 'PROVIDER_ERROR'],
        response: { 200: z.array(hostawayListing) },
      },
    },
    async (request) => fetchListings(deps, request.who),
  );
  app.post(
    '/api/hostaway/imports',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'importHostawayListings',
        summary: 'Save selected listings as units of a garage, skipping those already imported (admins)',
        'x-errors': [...refusals, 'CONFLICT', 'LIMIT_REACHED', 'NOT_FOUND'],
        body: importListingsBody,
        response: { 200: importListingsResult },
      },
    },
    async (request) => {
      const result = await importListings(deps, request.who, request.body);
      // The new properties' stays are read at once rather than at the next scheduled sync.
      await jobs.syncSoon(request.who.tenantId);
      return result;
    },
  );
  app.post(
    '/api/hostaway/webhook-credentials',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'generateHostawayWebhookCredentials',
        summary: 'New Basic-auth credentials for the Hostaway webhook, the password shown this once (admins)',
        'x-errors': [...refusals, 'CONFLICT'],
        response: { 200: webhookCredentials },
      },
    },
    async (request) => generateWebhookCredentials(deps.db, request.who.tenantId, appUrl),
  );
  app.post(
    WEBHOOK_PATH,
    {
      config: { access: 'public', inbound: true },
      schema: {
        tags,
        operationId: 'hostawayWebhook',
        summary: "Hostaway's unified webhook (HTTP Basic): the reservation it names is read again",
        'x-errors': ['UNAUTHENTICATED'],
        body: z.unknown(),
        response: { 200: z.object({ received: z.boolean() }) },
      },
    },
    async (request) => {
      const tenantId = await webhookTenant(deps.db, request.headers.authorization);
      const id = reservationIdOf(request.body);
      if (id === undefined || !(await firstDelivery(deps.db, tenantId, JSON.stringify(request.body)))) return { received: true };
      await jobs.refreshSoon(tenantId, id);
      return { received: true };
    },
  );
  app.get(
    '/api/units/:id/stays',
    {
      config: { access: { role: 'member', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'listUpcomingStays',
        summary: 'Stays of a unit under way or arriving in the next 14 days, from Hostaway',
        'x-errors': ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'NOT_FOUND'],
        params: idParam,
        response: { 200: z.array(upcomingStay) },
      },
    },
    async (request) => upcomingStays(deps.db, request.who, request.params.id, deps.now()),
  );
}
