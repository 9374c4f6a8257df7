/**
 * The one Fastify error handler (docs/ARCHITECTURE.md "How a request flows"): every failure answers
 * `{ error: { code, message, issues? } }` with the status of its code. 5xx never leak internals.
 * That includes the answers Fastify and Node write before any route runs (decision 015): router
 * errors (`answerFrameworkError`), requests Node's parser refuses (`answerClientError`) and
 * requests that arrive while the server closes.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorStatus, type ErrorBody, type ErrorCode } from '../../common/errors';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, loggableError, RETRY_AFTER_SECONDS } from './db-errors';
import { constraintError } from './constraint-errors';
import { AppError } from './errors';

function body(code: ErrorCode, message: string, issues?: ErrorBody['error']['issues']): ErrorBody {
  return { error: issues ? { code, message, issues } : { code, message } };
}

/** Installs the error and not-found handlers for /api routes. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      // A write that kept losing its race (db/tenant-tx.ts) is worth retrying almost at once.
      if (err.code === 'UNAVAILABLE' && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      return reply.status(err.status).send(body(err.code, err.message, err.issues));
    }
    const constraint = constraintError(err);
    if (constraint) return reply.status(constraint.status).send(body(constraint.code, constraint.message));
    if (hasZodFastifySchemaValidationErrors(err) && err.validationContext === 'params') {
      // A malformed id is answered exactly like an unknown one.
      return reply.status(404).send(body('NOT_FOUND', 'Not found'));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // Strict bodies and queries (docs/api.md "Unknown fields"): each field the operation does not take is named.
      const what = err.validationContext === 'querystring' ? 'query parameter' : 'field';
      const unknown: string[] = [];
      const issues = err.validation.flatMap((v) => {
        const path = v.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
        if (v.keyword !== 'unrecognized_keys') return [{ path, message: v.message ?? 'Invalid value' }];
        return (v.params.keys as string[]).map((key) => {
          const field = [...path, key].join('.');
          unknown.push(field);
          return { path: [...path, key], message: `Unknown ${what}: ${field}` };
        });
      });
      const message = unknown.length > 0 ? `Unknown ${what}${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}` : issues[0]?.message;
      return reply.status(400).send(body('VALIDATION', message ?? 'Invalid request', issues));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(body('PAYLOAD_TOO_LARGE', 'The request is too large'));
    }
    if (err.statusCode === 429) {
      return reply.status(429).send(body('RATE_LIMITED', 'Too many requests. Please wait a minute and try again.'));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type and the like.
      return reply.status(400).send(body('VALIDATION', err.message));
    }
    if (isDatabaseUnavailable(err)) {
      // Decision 010: an outage is answered like a busy server, not a bug; the pool reconnects by itself.
      request.log.warn({ error: loggableError(err) }, 'database unavailable');
      return reply
        .status(errorStatus.UNAVAILABLE)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(body('UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE));
    }
    request.log.error({ error: loggableError(err) }, 'unhandled error');
    return reply.status(errorStatus.INTERNAL).send(body('INTERNAL', 'Something went wrong. Please try again.'));
  });

  // Requests that reach a closing server (keep-alive connections) get UNAVAILABLE in the standard
  // shape; Fastify's own 503 (`return503OnClosing`, turned off in app.ts) has another body.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Node's server.close() ends only the connections idle at that moment: one whose request was in
  // flight stays open after its response, kept alive for `keepAliveTimeout` (72 s), and holds the
  // shutdown that long. Each response sent while closing therefore ends the connections now idle.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('retry-after', '5');
    done(new AppError('UNAVAILABLE', 'The server is restarting. Please try again in a moment.'));
  });
}

/**
 * Fastify's `frameworkErrors` option: router failures before any route runs. A path segment over
 * `maxParamLength` (100 characters) is 414 URI_TOO_LONG; a segment that is not valid
 * percent-encoding names no resource and is answered 404 like an unknown id.
 */
export function answerFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(errorStatus.URI_TOO_LONG).send(body('URI_TOO_LONG', 'The address is too long'));
  } else if (err.code === 'FST_ERR_BAD_URL') {
    void reply.status(errorStatus.NOT_FOUND).send(body('NOT_FOUND', 'Not found'));
  } else {
    void reply.status(errorStatus.INTERNAL).send(body('INTERNAL', 'Something went wrong. Please try again.'));
  }
}

/**
 * Fastify's `clientErrorHandler` option: a request Node's HTTP parser refused, answered on the raw
 * socket (no Fastify reply exists yet) in the standard shape, then the connection is closed.
 * Request line and headers over Node's `maxHeaderSize` (16 KiB; a 100 kB query string, say) are
 * 431 HEADERS_TOO_LARGE, a request slower than Node's `requestTimeout` is 408 REQUEST_TIMEOUT,
 * anything else the parser refuses is 400 VALIDATION.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one to answer (Node's own handler does the same).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'The address or headers of the request are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['REQUEST_TIMEOUT', 'The request took too long to arrive']
        : ['VALIDATION', 'Malformed request'];
  const status = errorStatus[code];
  const payload = JSON.stringify(body(code, message));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
  );
}
