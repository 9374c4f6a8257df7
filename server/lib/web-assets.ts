/**
 * How the built web app (Vite's output, `dist/web`) is served: precompressed files chosen by
 * Accept-Encoding and a cache rule per file (decision 016).
 *
 * Vite writes every file of `assets/` under a name that carries a hash of its content
 * (`assets/index-B1x2y3z4.js`), so a new build never reuses a name for other bytes: those files
 * may be kept for a year without asking again. Everything else (`index.html`, which names the
 * current assets, and any file copied unhashed) must be revalidated on each use; its ETag makes
 * that check a 304 when nothing changed.
 *
 * That rule covers the installable app's files at the root (decision 046): the service worker
 * `sw.js`, the Workbox runtime it imports (`workbox-<hash>.js`) and the web app manifest
 * `manifest.webmanifest` are revalidated: browsers fetch the worker past their own HTTP cache
 * when they look for an update, but a proxy's cache on the way would keep answering the old
 * release's worker, and the manifest and icons can change under the same names. Their types
 * come from the file extension: `application/javascript` for the worker (browsers refuse a worker
 * of any other type), `application/manifest+json` for the manifest.
 */
import { relative, sep } from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

/** Cache-Control of a content-hashed asset: one year, never revalidated. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of every other file: kept, but checked (ETag) before each use. */
export const REVALIDATED_CACHE = 'no-cache';

/** Vite's `build.assetsDir`: the directory whose files have content-hashed names. */
export const HASHED_ASSETS_DIR = 'assets';

/** The Cache-Control header of the file at `filePath` (absolute) under `webRoot`. */
export function webCacheControl(webRoot: string, filePath: string): string {
  return relative(webRoot, filePath).startsWith(HASHED_ASSETS_DIR + sep) ? HASHED_ASSET_CACHE : REVALIDATED_CACHE;
}

/**
 * Options of @fastify/static for the built web app in `webRoot`: `.br` and `.gz` files written
 * by the build are sent in place of the file when the request accepts that encoding (ETags stay:
 * each encoding has its own); `Vary: Accept-Encoding` because one URL has several encodings.
 */
export function webStaticOptions(webRoot: string): FastifyStaticOptions {
  return {
    root: webRoot,
    // Files are looked up per request, so a rebuilt web app is served without a restart.
    wildcard: true,
    preCompressed: true,
    cacheControl: false,
    // The build's own files (Vite's .vite/manifest.json) are not for browsers.
    dotfiles: 'ignore',
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', webCacheControl(webRoot, filePath));
      res.setHeader('vary', 'Accept-Encoding');
    },
  };
}
