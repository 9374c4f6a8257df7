/**
 * The single fetch wrapper of the web app: same-origin JSON requests with the session cookie,
 * failures thrown as ApiError with the server's code, message and field issues.
 */
import { safeParse, type core } from 'zod/mini';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/idempotency';
import { errorStatus, type ErrorCode, type FieldIssue } from '../../common/errors';
import { ApiError } from './api-error';
import { takeFirstScreenRequest } from './first-screen-requests';

export interface ApiFetchOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a FormData as multipart/form-data (a photo). */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Validates the answer; a mismatch throws ApiError UNEXPECTED_RESPONSE. A schema of zod's
   * classic or functional (`zod/mini`) API: the dashboard's first answers use the latter (decision 016).
   */
  schema?: core.$ZodType<T>;
  /** Lets the request outlive the page, e.g. stock taps sent as the page is left. */
  keepalive?: boolean;
  /**
   * A stock write: sent with an `Idempotency-Key` (docs/decisions/047-idempotency-keys.md), this
   * one, or a new UUID for the call when true — one call is one change, and the server writes it
   * once however often the same key arrives.
   */
  idempotencyKey?: string | true;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}

/** Reads `{ error: { code, message, issues? } }`; anything else becomes a generic error of `status`. */
function toApiError(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; issues?: unknown } } | null)?.error;
  if (error && isErrorCode(error.code) && typeof error.message === 'string') {
    const issues = Array.isArray(error.issues) ? (error.issues as FieldIssue[]) : [];
    return new ApiError(error.code, error.message, status, issues);
  }
  return new ApiError(status >= 500 ? 'INTERNAL' : 'UNEXPECTED_RESPONSE', 'Something went wrong. Please try again.', status);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Calls the API at `path` (e.g. '/api/dashboard').
 * @returns the parsed JSON answer (validated by `schema` when given), or null for an empty answer.
 * @throws ApiError for any failure, with status 0 and code NETWORK_ERROR when no answer arrived.
 */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, signal, schema, keepalive } = options;
  const key = options.idempotencyKey === true ? crypto.randomUUID() : options.idempotencyKey;
  let response: Response;
  try {
    // On the screen the page opened on, index.html may have sent this GET already.
    const started = method === 'GET' ? takeFirstScreenRequest(path) : undefined;
    response =
      (await started) ??
      (await fetch(path, {
        method,
        credentials: 'include',
        // The browser writes a FormData's own content type, with its boundary.
        headers: {
          Accept: 'application/json',
          ...(body === undefined || body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
          ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }),
        },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        signal,
        keepalive,
      }));
  } catch (cause) {
    // An aborted request is not a network failure; let the caller (TanStack Query) see it as is.
    if (signal?.aborted) throw cause;
    throw new ApiError('NETWORK_ERROR', 'Network error. Please check your connection and try again.', 0);
  }
  const data = await readJson(response);
  if (!response.ok) throw toApiError(response.status, data);
  return schema ? validated(schema, data, response.status) : (data as T);
}

/**
 * An answer of `status` checked against `schema`.
 * @throws ApiError UNEXPECTED_RESPONSE when it does not match
 */
export function validated<T>(schema: core.$ZodType<T>, data: unknown, status = 200): T {
  const parsed = safeParse(schema, data);
  if (!parsed.success) throw new ApiError('UNEXPECTED_RESPONSE', 'Something went wrong. Please try again.', status);
  return parsed.data;
}
