import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { installRequestLog } from './request-log';

describe('request log', () => {
  it('writes one line per answered request, with its method, URL, status and time, instead of two', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    const app = Fastify({ loggerInstance: pino(sink) as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
    installRequestLog(app);
    app.get('/ok', async () => ({ ok: true }));
    await app.ready();
    await app.inject({ method: 'GET', url: '/ok?x=1' });
    await app.inject({ method: 'GET', url: '/missing' });
    await app.close();

    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/ok?x=1', status: 200, reqId: expect.any(String) });
    expect(requests[1]).toMatchObject({ method: 'GET', url: '/missing', status: 404 });
    expect(typeof requests[0]!.ms).toBe('number');
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toHaveLength(0);
  });
});
