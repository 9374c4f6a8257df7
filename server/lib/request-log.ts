/**
 * The server log: pino, one JSON line per event on standard output, written asynchronously
 * (sonic-boom collects the lines that arrive while a write is under way into the next write), and
 * one line per request, written when its answer is sent, instead of Fastify's two ("incoming
 * request" and "request completed"), whose two synchronous writes took about 7 % of the main
 * thread under a health-check load (docs/decisions/025-server-as-shipped.md).
 *
 * Every line is JSON, so a log collector reads the lines of any number of servers alike: what
 * libraries print with `console` and the process's warnings become lines of this log too
 * (`sendStrayOutputToLog`). Secrets stay out of it: URLs are logged with their secrets replaced
 * (`loggableUrl`), and credentials under the keys of REDACTED_PATHS in any logged object are
 * replaced.
 *
 * Lines still buffered when the process exits are flushed by pino's exit handler.
 */
import { format } from 'node:util';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino, { type DestinationStream } from 'pino';

/** What a secret is replaced with in the log. */
export const REDACTED = '[redacted]';

/** Keys whose values are credentials: request headers, and password or token fields of a body. */
const CREDENTIAL_KEYS = ['authorization', 'cookie', 'password', 'newPassword', 'currentPassword', 'token', 'secret'];

/**
 * Where the server's log lines carry objects that may hold CREDENTIAL_KEYS: the line itself, its
 * `headers`, an error (`err`, `error`, and their headers), better-auth's `details` (an object or
 * the arguments it logged) and an unsent email (`mail`). Named one by one: a path starting with a
 * wildcard (`*.password`) made every log line walk all its keys, 17 µs a line against 4 µs
 * (200,000 request lines), and halved the health route's requests/s (15,000 against 29,600 on
 * one machine, autocannon at 20 connections).
 */
const LOGGED_CONTAINERS = ['', 'headers.', 'req.headers.', 'err.', 'err.headers.', 'error.', 'error.headers.', 'details.', 'details.headers.', 'details[*].', 'details[*].headers.', 'mail.'];

/** pino's `redact` paths: every credential key in every container. */
const REDACTED_PATHS = LOGGED_CONTAINERS.flatMap((container) => CREDENTIAL_KEYS.map((key) => `${container}${key}`));

/** A logger writing to `destination` (default: standard output, asynchronously), at level 'info'. */
export function createServerLogger(destination: DestinationStream = pino.destination({ dest: 1, sync: false })): FastifyBaseLogger {
  return pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: REDACTED } }, destination);
}

/**
 * Words of a query parameter's name that make its value a secret: `token` (the email confirmation
 * link's), `code`, `signature`, `key`… in any of `access_token`, `X-Amz-Signature`, `apiKey`.
 */
const SECRET_WORDS = new Set(['token', 'code', 'signature', 'sig', 'secret', 'password', 'key', 'apikey', 'otp', 'auth', 'credential']);

/**
 * True when the query parameter name `name` has a word of SECRET_WORDS, its words split at
 * non-alphanumerics and before a capital that follows a lower-case letter or digit.
 */
function isSecretName(name: string): boolean {
  let decoded = name;
  try {
    // The router decodes names, so `tok%65n` is `token` to it and must be to us.
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // A malformed escape is logged as written; its value is not a parameter anyone reads.
  }
  return decoded.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).some((word) => SECRET_WORDS.has(word.toLowerCase()));
}

/**
 * Path segments that are secrets: better-auth's password reset link, `GET /api/auth/reset-password/:token`
 * (ours puts the token after `#` instead, which never reaches a server, but the route answers).
 */
const SECRET_SEGMENT = /(\/reset-password\/)[^/?]+/;

/**
 * `url` (a request's path and query) as the log may show it: the value of every query parameter
 * whose name has a word of SECRET_WORDS, and the secret segment of a SECRET_SEGMENT path, are
 * REDACTED. `/api/auth/verify-email?token=eyJ…&callbackURL=/` gives
 * `/api/auth/verify-email?token=[redacted]&callbackURL=/`.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at === -1 ? url : url.slice(0, at)).replace(SECRET_SEGMENT, `$1${REDACTED}`);
  if (at === -1) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq !== -1 && isSecretName(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${path}?${query.join('&')}`;
}

/**
 * Logs one line per answered request: request id, method, URL (`loggableUrl`), status and the
 * time to answer in ms (Fastify's `reply.elapsedTime`). Requests whose connection closed before an
 * answer are logged by Fastify itself.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: loggableUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
    done();
  });
}

/** The console methods that print, and the level each is logged at. */
const CONSOLE_LEVELS = { debug: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' } as const;

/**
 * Makes `log` the only writer of the process's output: what anything prints with `console.debug`,
 * `log`, `info`, `warn` or `error` (a library's notice, the job queue's errors) becomes one line of
 * `log` at the matching level, its arguments formatted as `console` would; the process's warnings
 * (`process.emitWarning`: deprecations, experimental features), which Node prints as text, become
 * `warn` lines, `DeprecationWarning: …`, with the warning as `err`.
 * @returns a function that puts back `console` and Node's own warning printer.
 */
export function sendStrayOutputToLog(log: FastifyBaseLogger): () => void {
  const saved = Object.keys(CONSOLE_LEVELS).map((method) => [method, console[method as keyof typeof CONSOLE_LEVELS]] as const);
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    console[method as keyof typeof CONSOLE_LEVELS] = (...args: unknown[]) => log[level](format(...args));
  }
  const printers = process.listeners('warning');
  for (const printer of printers) process.removeListener('warning', printer);
  const onWarning = (warning: Error) => log.warn({ err: warning }, `${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  return () => {
    for (const [method, original] of saved) console[method as keyof typeof CONSOLE_LEVELS] = original;
    process.removeListener('warning', onWarning);
    for (const printer of printers) process.on('warning', printer);
  };
}
