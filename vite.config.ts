/**
 * Builds the web app from web/ into dist/web, which the API server serves with an SPA fallback.
 * In development the API runs separately on port 3000, so /api is proxied there.
 *
 * For a phone on one bar of signal (decision 016): every file is also written brotli- and
 * gzip-compressed (the server picks one by Accept-Encoding), file names under assets/ carry a
 * hash of their content (the server caches them for a year), each screen's code loads on demand,
 * /login's and the dashboard's in a few chunks each, and .vite/manifest.json lists the chunks,
 * from which `npm run test:web-budget` counts what /login and the dashboard download before
 * their first paint.
 *
 * Installable, with its shell offline (decision 046): vite-plugin-pwa writes the web app manifest
 * (`manifest.webmanifest`, linked from index.html) and a Workbox service worker (`sw.js`, with
 * its runtime `workbox-<hash>.js`) that precaches index.html, the icons and the code of every
 * screen but Reports, and answers navigations to app paths with index.html when offline.
 * web/app/service-worker.ts registers it. The icons in web/public are made by `npm run pwa:assets`.
 */
import { constants } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { firstScreensPreload } from './scripts/web-first-screens.ts';
import { webIconImports } from './scripts/web-icon-imports.ts';
import { firstScreenChunks } from './scripts/web-screen-chunks.ts';

const firstScreens = firstScreenChunks();

/** The theme colour: index.html's `theme-color`, the manifest's, the icons' background (pwa-assets.config.ts). */
const THEME_COLOUR = '#1e40af';
/** The page's background (`bg-slate-50` on body): the splash screen of the installed app. */
const BACKGROUND_COLOUR = '#f8fafc';

/**
 * Screens that need the network to show anything (modules under web/, as the router imports them
 * lazily): their code, and whatever only they load, stays out of the precache. Reports draws
 * charts (recharts, 393 kB) and the assistant's markdown (118 kB) from data the server computes:
 * offline there would be nothing to draw.
 */
const ONLINE_ONLY_SCREENS = ['features/reports/ReportsRoute.tsx'];

/**
 * Most bytes the service worker may precache, as Workbox counts them (files uncompressed): a
 * phone downloads them once per release, compressed, in the background after the first screen.
 */
const PRECACHE_BUDGET = 1_500_000;

type ManifestTransform = NonNullable<NonNullable<VitePWAOptions['workbox']>['manifestTransforms']>[number];

/**
 * What the service worker precaches of the build's code: every chunk index.html's entry reaches,
 * statically or through a lazy import, except through the lazy import of an ONLINE_ONLY_SCREENS
 * module, with each chunk's CSS. Taken from the chunk graph rather than file names, so a chunk
 * shared with another screen stays in and a new library that only Reports uses stays out.
 * @returns `plugin`, which reads the graph when the bundle is generated, and `transform`, a
 *   Workbox manifest transform (it runs later, when the build closes and the worker is written)
 *   that drops the other chunks and fails the build above PRECACHE_BUDGET.
 */
function precacheScope(): { plugin: Plugin; transform: ManifestTransform } {
  let leftOut: Set<string> | undefined;
  const plugin: Plugin = {
    name: 'precache-scope',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const isOnlineOnly = (facade: string | null) =>
        facade !== null && ONLINE_ONLY_SCREENS.some((module) => facade.replaceAll('\\', '/').endsWith(`/web/${module}`));
      const onlineOnly = chunks.filter((chunk) => chunk.isDynamicEntry && isOnlineOnly(chunk.facadeModuleId));
      if (onlineOnly.length !== ONLINE_ONLY_SCREENS.length) {
        this.error(`not every online-only screen is a lazy chunk of the build (${ONLINE_ONLY_SCREENS.join(', ')}): renamed?`);
      }
      const reached = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (reached.has(fileName) || chunk?.type !== 'chunk' || onlineOnly.includes(chunk)) return;
        reached.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) reached.add(css);
        for (const imported of [...chunk.imports, ...chunk.dynamicImports]) visit(imported);
      };
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) visit(entry.fileName);
      leftOut = new Set(
        chunks.flatMap((chunk) => [chunk.fileName, ...(chunk.viteMetadata?.importedCss ?? [])]).filter((file) => !reached.has(file)),
      );
    },
  };
  const transform: ManifestTransform = (entries) => {
    if (!leftOut) throw new Error('the precache scope was not computed: the build generated no bundle');
    const skip = leftOut;
    const manifest = entries.filter((entry) => !skip.has(entry.url));
    const size = manifest.reduce((sum, entry) => sum + entry.size, 0);
    if (size > PRECACHE_BUDGET) {
      throw new Error(
        `the service worker would precache ${size} bytes, over its budget of ${PRECACHE_BUDGET}: ` +
          'leave a screen that needs the network out (ONLINE_ONLY_SCREENS in vite.config.ts), or make the code smaller',
      );
    }
    return { manifest };
  };
  return { plugin, transform };
}

const precache = precacheScope();

export default defineConfig({
  root: 'web',
  plugins: [
    webIconImports(),
    react(),
    tailwindcss(),
    firstScreens.plugin,
    firstScreensPreload(),
    // Written once per build, so the slowest, smallest settings cost nothing per request.
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
        defineAlgorithm('gzip', { level: constants.Z_BEST_COMPRESSION }),
      ],
      exclude: [/\.vite\//],
    }),
    precache.plugin,
    VitePWA({
      // web/app/service-worker.ts registers the worker after the page has loaded, in production
      // builds only; no registration script is added to index.html, no workbox-window is bundled.
      injectRegister: false,
      // A new release's worker takes over as soon as it is installed; the open page keeps its
      // code until its next load, which gets the new release (web/app/service-worker.ts).
      registerType: 'autoUpdate',
      manifest: {
        id: '/',
        name: 'Inventory Manager',
        short_name: 'Inventory',
        description: 'Supply inventory for short-term rentals: counted in storage and in every property, with what is running out and where.',
        lang: 'en',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        theme_color: THEME_COLOUR,
        background_color: BACKGROUND_COLOUR,
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: '/maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // Precached besides the manifest's icons: what index.html links to.
      includeAssets: ['favicon.svg', 'favicon.ico', 'apple-touch-icon-180x180.png'],
      workbox: {
        // The build's code and index.html; not the .br/.gz copies (the server picks an encoding
        // for each request, the cache keeps what it was sent) nor .vite/manifest.json.
        globPatterns: ['**/*.{js,css,html}'],
        manifestTransforms: [precache.transform],
        // Offline, a navigation to an app path gets the precached index.html and the router shows
        // the screen. Never for the API (its pages, e.g. /api/docs, and its downloads) nor for a
        // path that names a file, which the server answers 404 rather than with the app.
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^[^?]*\.[a-z0-9]+(\?|$)/i],
        // No runtimeCaching: API answers always go to the network; the app keeps what it needs
        // offline itself.
        skipWaiting: true,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    manifest: true,
    // The first screens' chunks are preloaded by scripts/web-first-screens.ts instead.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their chunks stay cached across releases.
        // Only libraries that every screen needs are grouped; the others stay with the screens
        // that use them (forms, contracts, icons), so /login does not download the dashboard's.
        // Then /login's code, the dashboard's, and what both use make a chunk each
        // (scripts/web-screen-chunks.ts); the other screens' code is split by the bundler.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            {
              name: 'vendor',
              // With lucide-react's icon factory, which every screen's icons use; the icons stay
              // with the screens that show them (scripts/web-icon-imports.ts).
              test: /node_modules[\\/]((@tanstack|better-auth|@better-auth|@better-fetch|better-call|nanostores|defu|react-hot-toast|goober)[\\/]|lucide-react[\\/](?!dist[\\/]esm[\\/]icons[\\/]))/,
            },
            ...firstScreens.groups,
            // Used by the Reports screen only.
            { name: 'charts', test: /node_modules[\\/](recharts|d3-[a-z-]+|victory-vendor|decimal\.js-light|es-toolkit|@reduxjs|redux|immer|reselect)[\\/]/ },
            { name: 'markdown', test: /node_modules[\\/](react-markdown|remark-[a-z-]+|mdast-[a-z-]+|micromark[a-z-]*|unified|hast-[a-z-]+|unist-[a-z-]+|vfile[a-z-]*)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
    },
  },
});
