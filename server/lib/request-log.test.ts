import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createServerLogger, installRequestLog, loggableUrl, REDACTED, sendStrayOutputToLog } from './request-log';

/** A stream that keeps every JSON line written to it, parsed (it throws on a line that is not JSON). */
function lineSink() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, sink };
}

describe('request log', () => {
  it('writes one line per answered request, with its method, URL, status and time, instead of two', async () => {
    const { lines, sink } = lineSink();
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

  it('logs the URL with its secrets redacted', async () => {
    const { lines, sink } = lineSink();
    const app = Fastify({ loggerInstance: createServerLogger(sink), logController: new LogController({ disableRequestLogging: true }) });
    installRequestLog(app);
    app.get('/api/auth/verify-email', async () => ({ ok: true }));
    await app.ready();
    await app.inject({ method: 'GET', url: '/api/auth/verify-email?token=eyJhbGciOi.secret-part&callbackURL=%2Flogin' });
    await app.close();
    expect(lines.find((l) => l.msg === 'request')!.url).toBe(`/api/auth/verify-email?token=${REDACTED}&callbackURL=%2Flogin`);
    expect(JSON.stringify(lines)).not.toContain('secret-part');
  });
});

describe('loggableUrl', () => {
  it.each([
    ['/api/auth/verify-email?token=abc.def&callbackURL=/login', `/api/auth/verify-email?token=${REDACTED}&callbackURL=/login`],
    ['/api/daily-email/unsubscribe?token=t.u.sig', `/api/daily-email/unsubscribe?token=${REDACTED}`],
    ['/api/auth/reset-password/Zm9vYmFy?callbackURL=%2Freset-password', `/api/auth/reset-password/${REDACTED}?callbackURL=%2Freset-password`],
    ['/api/auth/reset-password/Zm9vYmFy', `/api/auth/reset-password/${REDACTED}`],
    ['/callback?code=4/0Ab&state=xyz', `/callback?code=${REDACTED}&state=xyz`],
    ['/x?access_token=a&refresh_token=b&apiKey=c&X-Amz-Signature=d&sig=e', `/x?access_token=${REDACTED}&refresh_token=${REDACTED}&apiKey=${REDACTED}&X-Amz-Signature=${REDACTED}&sig=${REDACTED}`],
    // The router decodes parameter names: an encoded name is still the token.
    ['/x?tok%65n=a&TOKEN=b', `/x?tok%65n=${REDACTED}&TOKEN=${REDACTED}`],
  ])('%s is logged as %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });

  it.each(['/api/items', '/api/forecast?days=14&unit_id=5b0c', '/api/reports/costs?from=2026-01-01&to=2026-01-31', '/?barcode=123&callbackURL=/x', '/x?token', '/x?%E0=1'])(
    '%s is logged as it is',
    (url) => {
      expect(loggableUrl(url)).toBe(url);
    },
  );
});

describe('the server logger', () => {
  it('redacts credentials in logged objects', () => {
    const { lines, sink } = lineSink();
    const log = createServerLogger(sink);
    log.warn({ headers: { authorization: 'Bearer sk-1', cookie: 'session=s-2', accept: 'text/html' } }, 'headers');
    log.warn({ err: { message: 'refused', headers: { authorization: 'Bearer sk-3' } } }, 'an error with its request');
    log.warn({ details: { password: 'p-4', newPassword: 'p-5', token: 't-6', email: 'a@example.com' } }, 'a body');
    const text = JSON.stringify(lines);
    for (const secret of ['sk-1', 's-2', 'sk-3', 'p-4', 'p-5', 't-6']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ headers: { authorization: REDACTED, cookie: REDACTED, accept: 'text/html' } });
    expect(lines[2]).toMatchObject({ details: { password: REDACTED, email: 'a@example.com' } });
  });

  it('turns console output and process warnings into lines of the log, and gives them back', async () => {
    const { lines, sink } = lineSink();
    const originalLog = console.log;
    const restore = sendStrayOutputToLog(createServerLogger(sink));
    try {
      console.log('job queue: %s', 'started', { n: 1 });
      console.error(new Error('boom'));
      console.warn('careful');
      const warned = new Promise((resolve) => process.once('warning', resolve));
      process.emitWarning('this API is deprecated', 'DeprecationWarning', 'DEP0');
      await warned;
    } finally {
      restore();
    }
    expect(console.log).toBe(originalLog);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, "job queue: started { n: 1 }"],
      [50, expect.stringMatching(/^Error: boom\n {4}at /)],
      [40, 'careful'],
      [40, 'DeprecationWarning: this API is deprecated'],
    ]);
    expect(lines[3]!.err).toMatchObject({ message: 'this API is deprecated', code: 'DEP0' });
  });
});
