/**
 * The built web app's files and the API's answers on a phone's network (decision 016):
 * precompressed files chosen by Accept-Encoding, content-hashed assets cached for a year,
 * index.html revalidated, ETags kept, large API answers compressed; the service worker, its
 * Workbox runtime and the web app manifest with their types and revalidated (decision 046). The
 * web root is a fixture shaped like Vite's output, so no build is needed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/index-Bx9Qe3Lm.js"></script></head><body><div id="root"></div></body></html>';
const ENTRY_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"Bath Towel ${i}"`).join(',')}];\n`;
/** The installable app's files at the root (decision 046), as vite-plugin-pwa writes them: not precompressed. */
const SERVICE_WORKER = 'define(["./workbox-4f2a9c1e"],function(s){self.skipWaiting(),s.precacheAndRoute([{url:"index.html",revision:"1"}])});\n';
const WORKBOX_RUNTIME = 'define(["exports"],function(t){"use strict";t.clientsClaim=function(){}});\n';
const WEB_MANIFEST = JSON.stringify({ name: 'Inventory Manager', start_url: '/', display: 'standalone', icons: [{ src: '/pwa-192x192.png', sizes: '192x192' }] });
/** The first bytes of a PNG: enough for its type. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Writes `text` and, as the build does, its .br and .gz versions. */
function writeWithCompressed(root: string, path: string, text: string) {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

// Serving files and compressing answers do not touch the database: PGlite alone is enough.
describe('web assets and compressed answers', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'web-assets-'));
    writeWithCompressed(webRoot, 'index.html', INDEX_HTML);
    writeWithCompressed(webRoot, 'assets/index-Bx9Qe3Lm.js', ENTRY_JS);
    writeWithCompressed(webRoot, '.vite/manifest.json', '{"index.html":{"file":"assets/index-Bx9Qe3Lm.js","isEntry":true}}');
    writeFileSync(join(webRoot, 'sw.js'), SERVICE_WORKER);
    writeFileSync(join(webRoot, 'workbox-4f2a9c1e.js'), WORKBOX_RUNTIME);
    writeFileSync(join(webRoot, 'manifest.webmanifest'), WEB_MANIFEST);
    writeFileSync(join(webRoot, 'pwa-192x192.png'), PNG);
    t = await createTestApp('pglite', { webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends the brotli file of a hashed asset, cached for a year, with its ETag', async () => {
    const res = await get('/assets/index-Bx9Qe3Lm.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['etag']).toBeTruthy();
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(ENTRY_JS.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(ENTRY_JS);
  });

  it('sends the gzip file to a client without brotli, and the file itself to one that accepts neither', async () => {
    const gz = await get('/assets/index-Bx9Qe3Lm.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(ENTRY_JS);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await get('/assets/index-Bx9Qe3Lm.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ENTRY_JS);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a repeated request for an unchanged asset with 304 from its ETag', async () => {
    const first = await get('/assets/index-Bx9Qe3Lm.js', { 'accept-encoding': 'br' });
    const again = await get('/assets/index-Bx9Qe3Lm.js', { 'accept-encoding': 'br', 'if-none-match': String(first.headers['etag']) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('makes index.html, at / and as the fallback of a page path, revalidate on every use', async () => {
    for (const url of ['/', '/index.html', '/units']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['etag'], url).toBeTruthy();
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX_HTML);
    }
    const first = await get('/', { 'accept-encoding': 'br' });
    expect((await get('/', { 'accept-encoding': 'br', 'if-none-match': String(first.headers['etag']) })).statusCode).toBe(304);
  });

  it('sends the service worker and its Workbox runtime as JavaScript, revalidated on every use', async () => {
    for (const [url, text] of [['/sw.js', SERVICE_WORKER], ['/workbox-4f2a9c1e.js', WORKBOX_RUNTIME]] as const) {
      const res = await get(url, { 'accept-encoding': 'identity' });
      expect(res.statusCode, url).toBe(200);
      // Browsers refuse to register a worker served with any type but JavaScript's.
      expect(res.headers['content-type'], url).toMatch(/^(application|text)\/javascript/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['etag'], url).toBeTruthy();
      expect(res.body, url).toBe(text);
      const again = await get(url, { 'accept-encoding': 'identity', 'if-none-match': String(res.headers['etag']) });
      expect(again.statusCode, url).toBe(304);
    }
  });

  it('sends the web app manifest as application/manifest+json and the icons as PNG, revalidated on every use', async () => {
    const manifest = await get('/manifest.webmanifest', { 'accept-encoding': 'identity' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['etag']).toBeTruthy();
    expect(manifest.json()).toEqual(JSON.parse(WEB_MANIFEST));

    const icon = await get('/pwa-192x192.png');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.rawPayload).toEqual(PNG);
  });

  it('keeps a missing worker file a 404, never the app page (a browser would register the page as a worker and fail)', async () => {
    for (const url of ['/workbox-00000000.js', '/service-worker.js']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('keeps a missing asset and the build manifest a 404', async () => {
    expect((await get('/assets/index-Zz0Zz0Zz.js', { 'accept-encoding': 'br' })).statusCode).toBe(404);
    expect((await get('/.vite/manifest.json', { 'accept-encoding': 'br' })).statusCode).toBe(404);
  });

  it('compresses API answers of 1 KiB or more, and leaves smaller ones as they are', async () => {
    const large = await get('/api/docs/json', { 'accept-encoding': 'br, gzip' });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers['vary']).toMatch(/accept-encoding/i);
    const document = JSON.parse(brotliDecompressSync(large.rawPayload).toString()) as { openapi: string; paths: object };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/api/dashboard');

    const gz = await get('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(document);

    const small = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });
});
