/**
 * Replies with a body the caller has already checked against its contract and serialized: a read
 * shared by several callers (lib/coalesce.ts) is serialized once for all of them. Fastify sends
 * a string with a JSON content type as is, skipping the route's response serializer.
 */
import type { FastifyReply } from 'fastify';

/** Sends `json` (a serialized response body) with status 200 and returns the reply. */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
