/**
 * The server log: pino, one JSON line per event on standard output, written asynchronously
 * (sonic-boom collects the lines that arrive while a write is under way into the next write), and
 * one line per request, written when its answer is sent, instead of Fastify's two ("incoming
 * request" and "request completed"), whose two synchronous writes took about 7 % of the main
 * thread under a health-check load (docs/decisions/025-server-as-shipped.md).
 *
 * Lines still buffered when the process exits are flushed by pino's exit handler.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';

/** A logger writing to standard output asynchronously, at `level` (default 'info'). */
export function createServerLogger(level = 'info'): FastifyBaseLogger {
  return pino({ level }, pino.destination({ dest: 1, sync: false }));
}

/**
 * Logs one line per answered request: request id, method, URL, status and the time to answer in
 * ms (Fastify's `reply.elapsedTime`). Requests whose connection closed before an answer are
 * logged by Fastify itself.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
    done();
  });
}
