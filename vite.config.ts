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
 */
import { constants } from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { firstScreensPreload } from './scripts/web-first-screens.ts';
import { webIconImports } from './scripts/web-icon-imports.ts';
import { firstScreenChunks } from './scripts/web-screen-chunks.ts';

const firstScreens = firstScreenChunks();

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
