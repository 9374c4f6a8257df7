/**
 * The built web app's files and the API's answers on a phone's network (decision 016):
 * precompressed files chosen by Accept-Encoding, content-hashed assets cached for a year,
 * index.html revalidated, ETags kept, large API answers compressed. The web root is a fixture
 * shaped like Vite's output, so no build is needed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/index-Bx9Qe3Lm.js"></script></head><body><div id="root"></div></body></html>';
const ENTRY_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"Bath Towel ${i}"`).join(',')}];\n`;

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
