/**
 * Builds the web app from web/ into dist/web, which the API server serves with an SPA fallback.
 * In development the API runs separately on port 3000, so /api is proxied there.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // Used by the Reports screen only, which is loaded on demand.
            { name: 'charts', test: /node_modules[\\/](recharts|d3-[a-z-]+|victory-vendor|decimal\.js-light|es-toolkit|@reduxjs|redux|immer|reselect)[\\/]/ },
            { name: 'markdown', test: /node_modules[\\/](react-markdown|remark-[a-z-]+|mdast-[a-z-]+|micromark[a-z-]*|unified|hast-[a-z-]+|unist-[a-z-]+|vfile[a-z-]*)[\\/]/ },
            { name: 'vendor', test: /node_modules/ },
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
