/**
 * Where the server finds the project's files at run time: the migrations (`drizzle/`), the
 * embedded database's worker and the built web app (`dist/web/`). Both are resolved from the project's root, one folder above this
 * module: above `server/paths.ts` when the sources run under tsx (tests, `npm run dev:server`,
 * the scripts), and above `dist/server.mjs` when the bundle built by `npm run build:server` runs
 * (`npm start`), which keeps this module at the same depth.
 */
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);

/** The folder of the SQL migrations and drizzle's journal. */
export const migrationsFolder = fileURLToPath(new URL('drizzle', root));

/** The embedded database's worker thread (db/pglite-thread.ts): JavaScript, so the thread needs no TypeScript loader. */
export const pgliteWorkerModule = new URL('server/db/pglite-worker.js', root);

/** The built web app (Vite's output). */
export const webRoot = fileURLToPath(new URL('dist/web', root));
