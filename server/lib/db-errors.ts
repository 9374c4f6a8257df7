/**
 * Database errors at the HTTP edge (decision 010): which failures mean "the database cannot be
 * reached right now" (answered 503 UNAVAILABLE with Retry-After), and how
 * any error is written to the log without the query's parameters.
 */

/** Seconds a client is asked to wait (`Retry-After`) before trying again after a 503 UNAVAILABLE. */
export const RETRY_AFTER_SECONDS = 5;

/** The message of a 503 UNAVAILABLE caused by the database. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Please try again in a moment.';

/**
 * Socket errors of a connection to the database (Node's `code`): the server is down, restarting,
 * unreachable or dropped the connection.
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs sent by a PostgreSQL server that cannot serve the statement now (PostgreSQL manual,
 * appendix A "PostgreSQL Error Codes"): the whole class 08 (connection exception), 57P01
 * admin_shutdown (fast shutdown/restart terminated the session), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up or shutting down), 53300 too_many_connections and 57014
 * query_canceled (the statement timeout of the pool, decision 010, stopped it).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/**
 * Messages of `pg` and `pg-pool` errors that carry no code: the socket closed under a client,
 * a connect attempt or the wait for a pooled connection timed out, a client whose connection
 * broke was used again.
 */
const DRIVER_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/, // "Client has encountered a connection error and is not queryable"
];

/** How deep `cause` chains and AggregateError lists are followed. */
const MAX_DEPTH = 4;

function isUnavailableItself(err: object): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // SQLSTATEs are five characters; class 08 is "connection exception".
    if (code.length === 5 && code.startsWith('08')) return true;
  }
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && DRIVER_MESSAGES.some((re) => re.test(message));
}

/**
 * True when `err` (or its `cause`, as drizzle wraps driver errors in DrizzleQueryError, or one of
 * an AggregateError's `errors`, as Node reports a refused connect to every address of a host) says
 * the database could not be reached or could not serve the statement right now, so trying again
 * in a moment is the advice. The transaction was rolled back, except when the connection broke
 * while its COMMIT was under way (decision 010).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > MAX_DEPTH) return false;
  if (isUnavailableItself(err)) return true;
  const { cause, errors } = err as { cause?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1));
}

/** Longest message, query text or other text field kept in a log line, in characters. */
export const LOG_TEXT_LIMIT = 1_000;
/** Stack frames kept per error in a log line. */
const LOG_STACK_FRAMES = 12;

function truncate(text: string, limit = LOG_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters]`;
}

/** The query parameters an error carries (drizzle's DrizzleQueryError keeps them in `params`). */
function paramsOf(err: Error): unknown[] | undefined {
  const params = (err as { params?: unknown }).params;
  return Array.isArray(params) ? params : undefined;
}

/**
 * DrizzleQueryError's message is "Failed query: <sql>\nparams: <values>" (and its stack starts
 * with it): rebuilt with the count of the values instead.
 */
function safeMessage(err: Error, params: unknown[] | undefined): string {
  const message = String(err.message ?? '');
  if (!params) return truncate(message);
  const at = message.lastIndexOf('\nparams: ');
  return `${truncate(at === -1 ? message : message.slice(0, at))}\nparams: [${params.length} redacted]`;
}

/**
 * A log-safe copy of `err` for a log line: type, message, stack frames and the
 * error's own scalar fields (`code`, `severity`, `detail`... of a PostgreSQL error), each text cut
 * at LOG_TEXT_LIMIT characters, the `cause` chain likewise. Query parameters are never kept: a
 * DrizzleQueryError's `params` become their count (they hold user data, and a report's can run to
 * megabytes). Anything that is not an Error is logged as its
 * truncated string form. Log it under a key other than `err`: pino's error serializer would
 * replace its type and fold the causes into one message.
 */
export function loggableError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err, message: truncate(String(err)) };
  const type = err.constructor?.name ?? 'Error';
  const params = paramsOf(err);
  const message = safeMessage(err, params);
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, LOG_STACK_FRAMES);
  const out: Record<string, unknown> = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  // Scalars only: `params` (an array), `cause` and pg-pool's `client` are left out here.
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string') out[key] = truncate(value);
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  if (params) out.params = `[${params.length} redacted]`;
  if (err.cause !== undefined && depth < MAX_DEPTH) out.cause = loggableError(err.cause, depth + 1);
  if (err instanceof AggregateError && depth < MAX_DEPTH) out.errors = err.errors.slice(0, 3).map((e) => loggableError(e, depth + 1));
  return out;
}
