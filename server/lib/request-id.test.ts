/**
 * Request ids (lib/request-id.ts): random and unique across server processes, or the balancer's
 * `X-Request-Id` when it is printable ASCII of at most 128 characters; sent back in
 * `X-Request-Id` and logged as the request line's `reqId`.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { MAX_REQUEST_ID_LENGTH } from './request-id';
import { createServerLogger } from './request-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  // Two servers, as behind a balancer: their ids must not repeat each other's.
  let one: TestApp;
  let two: TestApp;
  const lines: { reqId?: string; msg: string; url?: string }[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { reqId?: string; msg: string });
        callback();
      },
    });
    one = await createTestApp('pglite', { logger: createServerLogger(sink) });
    two = await createTestApp('pglite');
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('gives every request a random UUID, unique across servers, in X-Request-Id and in its log line', async () => {
    const ids: string[] = [];
    for (const t of [one, two, one, two]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      ids.push(String(res.headers['x-request-id']));
    }
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    const logged = lines.filter((l) => l.msg === 'request').map((l) => l.reqId);
    expect(logged).toEqual([ids[0], ids[2]]);
  });

  it('keeps the id a balancer sends, on errors and unknown paths too', async () => {
    const given = `lb-${'7'.repeat(MAX_REQUEST_ID_LENGTH - 3)}`;
    for (const url of ['/api/health', '/api/nothing-here', '/api/items', '/api/auth/get-session']) {
      const res = await one.app.inject({ method: 'GET', url, headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id'], url).toBe(given);
    }
    // An AWS load balancer's trace id, with its punctuation.
    const trace = 'Root=1-67891233-abcdef012345678912345678; Sampled=1';
    expect((await two.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': trace } })).headers['x-request-id']).toBe(trace);
    expect(lines.filter((l) => l.msg === 'request' && l.reqId === given).map((l) => l.url)).toEqual(['/api/health', '/api/nothing-here', '/api/items', '/api/auth/get-session']);
  });

  it.each([
    ['longer than 128 characters', 'x'.repeat(MAX_REQUEST_ID_LENGTH + 1)],
    ['not ASCII', 'id-é'],
    ['a control character', 'id\tone'],
    ['empty', ''],
  ])('replaces an X-Request-Id that is %s by a UUID', async (_label, given) => {
    const res = await one.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': given } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });
});
