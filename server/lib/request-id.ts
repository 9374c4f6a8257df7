/**
 * Request ids that stay unique across server processes (docs/ARCHITECTURE.md "The parts"): each
 * request's log lines carry its id as `reqId`, and its answer carries it as `X-Request-Id`, so a
 * line in any server's log can be matched with the answer a client or the balancer saw.
 *
 * Fastify's own ids count per process (`req-1`, `req-2`…) and repeat on every server behind a
 * balancer. An id the balancer already gave the request in `X-Request-Id` is kept, so its access
 * log and ours share it; any other request gets a random UUID.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Longest `X-Request-Id` taken from a request, in characters; a longer one is replaced. */
export const MAX_REQUEST_ID_LENGTH = 128;

/** 1 to MAX_REQUEST_ID_LENGTH printable ASCII characters (space to tilde). */
const ACCEPTED_ID = new RegExp(`^[\\x20-\\x7e]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/**
 * The id of `request` (Fastify's `genReqId`): its `X-Request-Id` header when that is 1 to
 * MAX_REQUEST_ID_LENGTH printable ASCII characters, else a new random UUID.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}

/** Sends every answer of `app` (routes, static files, errors, 404s) with its request's id in `X-Request-Id`. */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
