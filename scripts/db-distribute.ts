/**
 * `npm run db:distribute`: spreads a migrated database over a Citus cluster
 * (server/db/distribution.ts; docs/operations.md "Moving to Citus"). DATABASE_URL names the
 * database on the coordinator, as a superuser; Citus must be installed on every node, with
 * `create extension citus` run in the database on each and the workers added
 * (`citus_set_coordinator_host`, `citus_add_node`). Run it after `npm run db:migrate` whenever a
 * migration adds a table: tables already distributed are left alone.
 *
 * Exit codes: 0 done, 1 the database refused (its message is printed), 2 no DATABASE_URL.
 */
import pg from 'pg';
import { distributeTables } from '../server/db/distribution';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('db:distribute: set DATABASE_URL to the database on the Citus coordinator.');
  process.exit(2);
}
const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
  const done = await distributeTables(client);
  console.log(
    done.distributed.length + done.reference.length === 0
      ? 'db:distribute: every table was distributed already.'
      : `db:distribute: ${done.distributed.length} tables distributed by tenant_id (${done.distributed.join(', ') || 'none'}); ${done.reference.length} reference tables (${done.reference.join(', ') || 'none'}).`,
  );
} catch (err) {
  console.error(`db:distribute: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
}
