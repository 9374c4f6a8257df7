/**
 * The one error model shared by server and web (docs/ARCHITECTURE.md "How a request flows").
 * Every failed API call answers `{ error: { code, message, issues? } }` with the status of its code.
 */
export const errorStatus = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  EMAIL_NOT_VERIFIED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NO_TENANT: 409,
  /** A request with the same Idempotency-Key is still being written (docs/decisions/047-idempotency-keys.md). */
  IDEMPOTENCY_KEY_IN_USE: 409,
  LAST_RECORD: 409,
  /** Sign-up for an email that has an account (decision 002). */
  USER_ALREADY_EXISTS: 422,
  /** An Idempotency-Key sent again with another method, path or body (docs/decisions/047-idempotency-keys.md). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The request took too long to arrive (Node's request timeout). */
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  /** A path segment longer than the router accepts. */
  URI_TOO_LONG: 414,
  /** The request line and headers are over Node's limit (16 KiB), e.g. a huge query string. */
  HEADERS_TOO_LARGE: 431,
  SUBSCRIPTION_REQUIRED: 402,
  LIMIT_REACHED: 402,
  RATE_LIMITED: 429,
  BILLING_NOT_CONFIGURED: 503,
  /** The database is unreachable or the write kept conflicting: nothing was changed, try again (Retry-After). */
  UNAVAILABLE: 503,
  PROVIDER_ERROR: 502,
  /** The photo scanner has no AI key on this server (decision 035). */
  SCANNER_NOT_CONFIGURED: 503,
  /** The photo holds none of the company's items as the model saw it (decision 035). */
  NOTHING_DETECTED: 422,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** One field problem of a 400 answer: the path of the field and what is wrong with it. */
export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; issues?: FieldIssue[] };
}
