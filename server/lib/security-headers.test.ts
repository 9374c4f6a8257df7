import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { recordHelmetHeaders } from './security-headers';

describe('security headers', () => {
  it("records helmet's headers for our options: a CSP that does not upgrade requests, and the rest of helmet's defaults", () => {
    const headers = recordHelmetHeaders();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    // The web app's service worker and manifest, from our own origin only (decision 046).
    expect(headers['content-security-policy']).toContain("worker-src 'self'");
    expect(headers['content-security-policy']).toContain("manifest-src 'self'");
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
    let webRoot: string;
    beforeAll(async () => {
      // A built web app's page, service worker and manifest (decision 046), so static files are answered too.
      webRoot = mkdtempSync(join(tmpdir(), 'security-headers-'));
      writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
      writeFileSync(join(webRoot, 'sw.js'), 'self.skipWaiting();\n');
      writeFileSync(join(webRoot, 'manifest.webmanifest'), '{"name":"Inventory Manager"}');
      t = await createTestApp('pglite', { webRoot });
    });
    afterAll(async () => {
      await t.close();
      rmSync(webRoot, { recursive: true, force: true });
    });

    it('sets them on a route, a refusal, a 404 and the web app\'s files alike', async () => {
      const expected = recordHelmetHeaders();
      const answers = await Promise.all([
        t.app.inject({ method: 'GET', url: '/api/health' }),
        t.app.inject({ method: 'GET', url: '/api/dashboard' }),
        t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
        t.app.inject({ method: 'GET', url: '/units' }),
        t.app.inject({ method: 'GET', url: '/sw.js' }),
        t.app.inject({ method: 'GET', url: '/manifest.webmanifest' }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 200, 200, 200]);
      for (const answer of answers) {
        for (const [name, value] of Object.entries(expected)) expect(answer.headers[name]).toBe(value);
        expect(answer.headers['x-powered-by']).toBeUndefined();
      }
    });
  });
});
