import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { recordHelmetHeaders } from './security-headers';

describe('security headers', () => {
  it("records helmet's headers for our options: a CSP that does not upgrade requests, and the rest of helmet's defaults", () => {
    const headers = recordHelmetHeaders();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'x-content-type-options': 'nosniff',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
  });

  it('refuses options whose headers depend on the request', () => {
    const perRequest = { contentSecurityPolicy: { directives: { scriptSrc: ["'self'", (req: { url?: string }) => `'nonce-${req.url}'`] } } };
    expect(() => recordHelmetHeaders(perRequest)).toThrow(/depend on the request/);
  });

  describe('on every answer', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('pglite');
    });
    afterAll(() => t.close());

    it('sets them on a route, a refusal and a 404 alike', async () => {
      const expected = recordHelmetHeaders();
      const answers = await Promise.all([
        t.app.inject({ method: 'GET', url: '/api/health' }),
        t.app.inject({ method: 'GET', url: '/api/dashboard' }),
        t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404]);
      for (const answer of answers) {
        for (const [name, value] of Object.entries(expected)) expect(answer.headers[name]).toBe(value);
        expect(answer.headers['x-powered-by']).toBeUndefined();
      }
    });
  });
});
