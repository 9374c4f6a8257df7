/**
 * Strict queries (docs/api.md "Unknown fields"): an API operation that declares no query
 * parameters refuses any, as those that declare them refuse the ones they do not take (their
 * `z.strictObject` schemas in common/contracts). A client learns at once that a parameter it
 * sends means nothing here, with a 400 VALIDATION naming it (lib/error-handler.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route receives another service's calls (Stripe's, Hostaway's webhooks): what it sends
     * beside its signed body is that service's to define, so the query is not checked.
     */
    inbound?: true;
  }
}

/** The query of an operation that takes no parameters. */
const noParameters = z.strictObject({});

/**
 * Gives every `/api/` route with a schema and no `querystring` the empty strict query. Must be
 * installed before the routes and before the API document collects them (an onRoute hook sees
 * only routes added after it). Routes without a schema (better-auth's, the document's own) and
 * those of other services' calls (`config.inbound`) are left alone: their queries are not ours to
 * define.
 */
export function installStrictQueries(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || !route.schema || route.schema.querystring || route.config?.inbound) return;
    route.schema = { ...route.schema, querystring: noParameters };
  });
}
