/**
 * The security headers of every answer (Content-Security-Policy, Strict-Transport-Security,
 * X-Frame-Options and the rest), as helmet defines them for our options, computed once at boot.
 *
 * helmet is Express middleware that sets the same header values on every response; its Fastify
 * adapter builds that middleware again for every request, which cost about 7 % of the main thread
 * of a health check under load (docs/decisions/025-server-as-shipped.md). Our options hold no
 * per-request value (no CSP nonces, no directive functions), so the headers helmet would set are
 * the same for every request: we record them once and set the recorded copy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Our helmet options: helmet's defaults (`default-src 'self'` and the rest), and
 * - no `upgrade-insecure-requests`: served over plain http on a LAN too, so sub-requests are
 *   never upgraded;
 * - `worker-src 'self'` and `manifest-src 'self'`: the web app's service worker (`/sw.js`, which
 *   loads `/workbox-<hash>.js`) and its manifest (`/manifest.webmanifest`), decision 046. The
 *   default source allows both already; naming them keeps them allowed, and nothing else, if the
 *   default source ever changes.
 */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, workerSrc: ["'self'"], manifestSrc: ["'self'"] } },
};

/**
 * The headers helmet sets with `options`, by name, recorded by running its middleware once
 * against a response that only records.
 * @throws Error when the options make helmet read the request (a directive function, say).
 */
export function recordHelmetHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
      return recorder;
    },
    removeHeader() {},
  };
  const noRequest = new Proxy({} as IncomingMessage, {
    get() {
      throw new Error('These helmet options depend on the request: their headers cannot be computed once');
    },
  });
  let done = false;
  helmet(options)(noRequest, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously: its options depend on the request');
  return headers;
}

/** Sets the recorded security headers on every answer of `app` (routes, static files, errors, 404s). */
export function installSecurityHeaders(app: FastifyInstance): void {
  const headers = recordHelmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
