/**
 * npm run lint:api (first step): writes the OpenAPI document the server serves at
 * /api/docs/json to the file named by the first argument (default dist/openapi.json), so that
 * `redocly lint` checks exactly what clients read (decision 015). The app is built in process on
 * an empty in-memory PGlite database: building it registers the routes and their schemas and
 * runs no query, so no migration is needed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { wrapPglite } from '../server/db/client';

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'dist/openapi.json');
  const database = wrapPglite(await PGlite.create());
  // A fixed configuration, not process.env: the document must not depend on the machine.
  const config = loadConfig({ APP_URL: 'http://localhost:3000' });
  const app = await buildApp({ config: { ...config, appSecret: 'api-document-only-secret-0123456789abcdef' }, db: database.db });
  try {
    await app.ready();
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
    console.log(`OpenAPI document written to ${out}`);
  } finally {
    await app.close();
    await database.close();
  }
}

await main();
