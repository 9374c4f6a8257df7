/**
 * `npm run check:distribution`: lists what in the schema a Citus cluster distributed by tenant
 * would refuse or run wrongly (server/db/distribution-rules.ts), on the database DATABASE_URL
 * names, or without it on a fresh embedded database migrated for the check. Its test runs with
 * the suite (server/db/distribution-rules.test.ts).
 *
 * Exit codes: 0 nothing wrong, 1 problems listed (or the database could not be read).
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { wrapPglite } from '../server/db/client';
import { distributionProblems, type CatalogQuery } from '../server/db/distribution-rules';
import { runMigrations } from '../server/db/migrate';

const url = process.env.DATABASE_URL;
let query: CatalogQuery;
let close: () => Promise<void>;
if (url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  query = async (text) => (await client.query(text)).rows as Record<string, unknown>[];
  close = () => client.end();
} else {
  const client = await PGlite.create();
  await runMigrations(wrapPglite(client));
  query = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
  close = () => client.close();
}
try {
  const problems = await distributionProblems(query);
  for (const p of problems) console.log(`${p.table}: ${p.problem}`);
  console.log(problems.length === 0 ? 'check:distribution: the schema can be distributed by tenant.' : `check:distribution: ${problems.length} problem(s).`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} catch (err) {
  console.error(`check:distribution: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await close();
}
