/**
 * Every answer Fastify or Node can write on their own carries the standard error body
 * `{ error: { code, message } }` with the status of its code (decision 015): router errors
 * (long and malformed path segments), requests Node's parser refuses (431, 400), unknown routes
 * and methods, malformed and oversized bodies, and requests reaching a closing server.
 */
import { connect, type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus, type ErrorCode } from '../../common/errors';
import { backends, createTestApp, signUpAndSignIn, type TestApp } from '../test/harness';
import { answerClientError, answerFrameworkError, installErrorHandler } from './error-handler';

/** Asserts the standard error body with `code` and the status of that code. */
function expectError(res: { statusCode: number; json(): unknown }, code: ErrorCode): void {
  expect(res.statusCode).toBe(errorStatus[code]);
  const body = res.json() as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
}

/** Writes `raw` on a new TCP connection to `port` and resolves with everything read until it closes. */
function rawExchange(port: number, raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString()) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.write(raw);
  });
}

/** Parses a raw HTTP/1.1 answer into its status and JSON body. */
function parseRaw(answer: string): { statusCode: number; json(): unknown } {
  const [head = '', payload = ''] = answer.split('\r\n\r\n');
  return { statusCode: Number(head.split(' ')[1]), json: () => JSON.parse(payload) };
}

describe.each(backends)('error shapes (%s)', (backend) => {
  let t: TestApp;
  let cookie: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(backend);
    cookie = await signUpAndSignIn(t, 'shapes@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a path id over the router limit with 414 URI_TOO_LONG', async () => {
    expectError(await t.app.inject({ method: 'GET', url: `/api/units/${'a'.repeat(5000)}`, headers: { cookie } }), 'URI_TOO_LONG');
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/items/${'1'.repeat(101)}`, headers: { cookie } }), 'URI_TOO_LONG');
  });

  it('answers a path id that is not valid percent-encoding like an unknown id', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/units/%E0%A4%A', headers: { cookie } }), 'NOT_FOUND');
  });

  it('answers a 100 kB query string with 431 HEADERS_TOO_LARGE (Node refuses it before Fastify)', async () => {
    const answer = await rawExchange(port, `GET /api/reports/costs?start=${'1'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectError(parseRaw(answer), 'HEADERS_TOO_LARGE');
  });

  it('answers a request line Node cannot parse with 400 VALIDATION', async () => {
    expectError(parseRaw(await rawExchange(port, 'NOT A REQUEST\r\n\r\n')), 'VALIDATION');
  });

  it('answers unknown routes and unknown methods of known paths with 404', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: { cookie } }), 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/items', headers: { cookie } }), 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'PUT', url: '/api/me', headers: { cookie } }), 'NOT_FOUND');
  });

  it('answers malformed JSON, a wrong content type and an empty JSON body with 400', async () => {
    const headers = { cookie, 'content-type': 'application/json' };
    expectError(await t.app.inject({ method: 'POST', url: '/api/items', headers, payload: '{"name": ' }), 'VALIDATION');
    expectError(await t.app.inject({ method: 'POST', url: '/api/items', headers, payload: '' }), 'VALIDATION');
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/items', headers: { cookie, 'content-type': 'text/plain' }, payload: 'name=x' }),
      'VALIDATION',
    );
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), category: 'y' });
    const headers = { cookie, 'content-type': 'application/json' };
    expectError(await t.app.inject({ method: 'POST', url: '/api/items', headers, payload }), 'PAYLOAD_TOO_LARGE');
  });
});

describe('a closing server', () => {
  it('answers requests that still arrive on an open connection with 503 UNAVAILABLE', async () => {
    // The app's own options (app.ts) on a bare instance, with a route that stays in flight.
    const app = Fastify({ frameworkErrors: answerFrameworkError, clientErrorHandler: answerClientError, return503OnClosing: false });
    installErrorHandler(app);
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    app.get('/slow', async () => {
      started();
      await inFlight;
      return { ok: true };
    });
    app.get('/next', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await handlerStarted;
    const closed = app.close();
    socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await closed;
    // The 503 says `Connection: close`, so the server ends the connection after it.
    await ended;

    const answers = Buffer.concat(chunks).toString().split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(parseRaw(answers[0]!).statusCode).toBe(200);
    expectError(parseRaw(answers[1]!), 'UNAVAILABLE');
    expect(answers[1]).toMatch(/retry-after: 5/i);
  });

  it('ends a kept-alive connection once its in-flight response is sent, so closing does not wait for the keep-alive timeout', async () => {
    const app = Fastify({ return503OnClosing: false });
    installErrorHandler(app);
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    app.get('/slow', async () => {
      started();
      await inFlight;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await handlerStarted;
    const began = performance.now();
    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await closed;
    await ended;

    expect(performance.now() - began).toBeLessThan(2_000);
    expect(parseRaw(Buffer.concat(chunks).toString()).statusCode).toBe(200);
  });
});
