/**
 * Database errors at the HTTP edge (decision 010): which errors mean the database is unavailable,
 * the 503 answer they get, and log lines that never carry a query's parameters.
 */
import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, LOG_TEXT_LIMIT, loggableError, RETRY_AFTER_SECONDS } from './db-errors';
import { installErrorHandler } from './error-handler';

function databaseError(code: string, message: string): pg.DatabaseError {
  const err = new pg.DatabaseError(message, message.length, 'error');
  err.code = code;
  return err;
}

/** A real refused connection: nothing listens on port 1. */
async function refusedConnect(): Promise<unknown> {
  const client = new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2_000 });
  return client.connect().then(
    () => new Error('connected'),
    (err: unknown) => err,
  );
}

const wrapped = (cause: unknown) => new DrizzleQueryError('select $1', ['x'], cause as Error);

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection, bare and wrapped by drizzle', async () => {
    const refused = await refusedConnect();
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(refused))).toBe(true);
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['08001', 'could not establish connection'],
    ['53300', 'sorry, too many clients already'],
    ['57014', 'canceling statement due to statement timeout'],
  ])('recognises SQLSTATE %s', (code, message) => {
    expect(isDatabaseUnavailable(wrapped(databaseError(code, message)))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ])('recognises the driver error "%s"', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error(message)))).toBe(true);
  });

  it('recognises a refusal by every address of a host (AggregateError)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new AggregateError([refused], ''))).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(databaseError('23505', 'duplicate key value violates unique constraint'))],
    ['a check violation', wrapped(databaseError('23514', 'new row violates check constraint'))],
    ['a serialization failure', wrapped(databaseError('40001', 'could not serialize access'))],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a non-error', 'ECONNREFUSED'],
    ['null', null],
  ])('does not take %s for an outage', (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('loggableError', () => {
  const secret = 'guest-email@example.com';
  const huge = 'x'.repeat(3_000_000);

  it('keeps no query parameter, and no text over the limit, at any depth', () => {
    const err = wrapped(databaseError('57P01', 'terminating connection due to administrator command'));
    Object.assign(err, { params: [secret, huge] });
    const logged = JSON.stringify(loggableError(new Error('report failed', { cause: err })));
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain('x'.repeat(LOG_TEXT_LIMIT + 1));
    expect(logged.length).toBeLessThan(20_000);
    const cause = loggableError(err);
    expect(cause).toMatchObject({ type: 'DrizzleQueryError', params: '[2 redacted]', query: 'select $1' });
    expect(cause.message).toBe('Failed query: select $1\nparams: [2 redacted]');
    expect((cause.cause as Record<string, unknown>).code).toBe('57P01');
    expect(String(cause.stack)).toMatch(/^DrizzleQueryError: Failed query: select \$1\nparams: \[2 redacted\]\n\s+at /);
  });

  it('cuts a long message and logs a non-error as text', () => {
    expect(String(loggableError(new Error(huge)).message).length).toBeLessThan(LOG_TEXT_LIMIT + 100);
    expect(loggableError(huge)).toEqual({ type: 'string', message: expect.stringMatching(/more characters\]$/) });
  });
});

describe('the error handler on database errors', () => {
  let app: FastifyInstance;
  const logLines: string[] = [];
  const errors: Record<string, () => unknown> = {
    restarting: () => wrapped(databaseError('57P01', 'terminating connection due to administrator command')),
    terminated: () => new Error('Connection terminated unexpectedly'),
    bug: () => new DrizzleQueryError('insert into t values ($1, $2)', ['guest-email@example.com', 'y'.repeat(2_000_000)], new Error('boom')),
  };
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    app = Fastify({ logger: { level: 'info', stream } });
    installErrorHandler(app);
    app.get('/fail/:kind', async (request) => {
      throw errors[(request.params as { kind: string }).kind]!();
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(['restarting', 'terminated'])('answers a database that is %s with 503 UNAVAILABLE and Retry-After', async (kind) => {
    const res = await app.inject({ method: 'GET', url: `/fail/${kind}` });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } });
  });

  it('logs an unhandled query error without its parameters', async () => {
    logLines.length = 0;
    const res = await app.inject({ method: 'GET', url: '/fail/bug' });
    expect(res.statusCode).toBe(500);
    const line = logLines.find((l) => l.includes('unhandled error'));
    expect(line).toBeDefined();
    expect(line!.length).toBeLessThan(20_000);
    expect(line).not.toContain('guest-email@example.com');
    expect(JSON.parse(line!).error).toMatchObject({ type: 'DrizzleQueryError', params: '[2 redacted]', cause: { message: 'boom' } });
  });
});
