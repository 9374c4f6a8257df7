/**
 * The one Fastify error handler (DESIGN.md §8): every failure answers
 * `{ error: { code, message, issues? } }` with the status of its code. 5xx never leak internals.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorStatus, type ErrorBody, type ErrorCode } from '../../common/errors';
import { AppError } from './errors';

function body(code: ErrorCode, message: string, issues?: ErrorBody['error']['issues']): ErrorBody {
  return { error: issues ? { code, message, issues } : { code, message } };
}

/** Installs the error and not-found handlers for /api routes. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).send(body(err.code, err.message, err.issues));
    }
    if (hasZodFastifySchemaValidationErrors(err) && err.validationContext === 'params') {
      // A malformed id is answered exactly like an unknown one.
      return reply.status(404).send(body('NOT_FOUND', 'Not found'));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send(body('VALIDATION', issues[0]?.message ?? 'Invalid request', issues));
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
    request.log.error({ err }, 'unhandled error');
    return reply.status(errorStatus.INTERNAL).send(body('INTERNAL', 'Something went wrong. Please try again.'));
  });
}
