/**
 * ApiError: the one error type the web app's API calls throw. It carries the server's error body
 * (`{ error: { code, message, issues? } }`, common/errors.ts) plus the HTTP status.
 */
import type { ErrorCode, FieldIssue } from '../../common/errors';

/**
 * The server's codes, plus two the browser produces itself: NETWORK_ERROR when no answer arrived
 * (status 0) and UNEXPECTED_RESPONSE when the answer was not the agreed shape.
 */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  readonly issues: FieldIssue[];

  constructor(code: ApiErrorCode, message: string, status: number, issues: FieldIssue[] = []) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.issues = issues;
  }
}

/** Gateway statuses that mean "the server was not reached", worth another try. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** True for failures of the network rather than of the request (docs/product.md "Messages", Sign-in and session: retryable fetch errors). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || RETRYABLE_STATUSES.has(error.status));
}

/** True when `error` is an ApiError with one of `codes`. */
export function hasErrorCode(error: unknown, ...codes: ApiErrorCode[]): boolean {
  return error instanceof ApiError && codes.includes(error.code);
}

/**
 * The toast text for a failed save: the server's own message when it rejected the input (400),
 * which says what to fix, otherwise the screen's fixed `fallback` text.
 */
export function saveErrorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status === 400 ? error.message : fallback;
}

/**
 * The toast text for a refused action: the server's own message whenever it answered with a
 * reason (any 4xx: a field problem, a role that is not enough, the last record, not enough stock
 * in the garage), otherwise the screen's fixed `fallback` text. A 401 gets the fallback, since
 * the route guards take the signed-out user to /login anyway.
 */
export function actionErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return fallback;
  if (error.code === 'UNEXPECTED_RESPONSE' || error.code === 'UNAUTHENTICATED') return fallback;
  return error.message;
}
