/**
 * AppError: the one error type services throw (docs/ARCHITECTURE.md "How a request flows"). The
 * HTTP status comes from the code's entry in common/errors.ts; the Fastify error handler turns it
 * into the error body.
 */
import { errorStatus, type ErrorCode, type FieldIssue } from '../../common/errors';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: FieldIssue[];

  constructor(code: ErrorCode, message: string, issues?: FieldIssue[]) {
    super(message);
    this.code = code;
    this.issues = issues;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

/** 404 for a missing id — and for another tenant's id, which must look exactly the same. */
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
