/**
 * Databases on a Citus cluster for the Citus suite (`npm run test:citus`, scripts/test-citus.ts):
 * each test file gets its own database on the coordinator and every worker, migrated by the
 * product's migrations and distributed by `distributeTables`, as an operator's would be
 * (docs/operations.md "Moving to Citus").
 */
import { runMigrations } from '../db/migrate';
import { distributeTables } from '../db/distribution';
import { openPostgres } from '../db/client';
import { databaseUrlFor, withClient } from '../db/pg-url';

/** Shards per table in tests: enough to spread tenants over both workers, few enough to create fast. */
const TEST_SHARD_COUNT = 4;

/** The coordinator and workers of a database made by {@link prepareCitusDatabase}. */
export interface CitusDatabase {
  /** The database on the coordinator, as a superuser. */
  url: string;
  /** The same database on each worker. */
  workerUrls: string[];
}

/**
 * Step 1 of docs/operations.md "Moving to Citus" for a new database `name` on the cluster whose
 * coordinator `adminUrl` names (its `postgres` database lists the workers): the database created
 * on every node (from the coordinator, `citus.enable_create_database_propagation`), `create
 * extension citus` in it on every node, the coordinator's host set and the workers added.
 * @returns its URLs on the coordinator and on each worker.
 * @throws the database's error (the cluster unreachable, the name taken).
 */
export async function prepareCitusDatabase(adminUrl: string, name: string): Promise<CitusDatabase> {
  const workers = await withClient(adminUrl, async (c) => {
    await c.query('set citus.enable_create_database_propagation = on');
    await c.query(`create database ${name}`);
    const { rows } = await c.query<{ host: string; port: number }>(`select nodename as host, nodeport as port from pg_dist_node where noderole = 'primary' and groupid <> 0`);
    return rows;
  });
  const coordinator = new URL(adminUrl);
  const url = databaseUrlFor(adminUrl, name);
  const workerUrls = workers.map((w) => {
    const worker = new URL(url);
    worker.hostname = w.host;
    worker.port = String(w.port);
    return worker.toString();
  });
  for (const workerUrl of workerUrls) await withClient(workerUrl, (c) => c.query('create extension if not exists citus'));
  await withClient(url, async (c) => {
    await c.query('create extension if not exists citus');
    await c.query('select citus_set_coordinator_host($1, $2)', [coordinator.hostname, Number(coordinator.port)]);
    for (const w of workers) await c.query('select citus_add_node($1, $2)', [w.host, w.port]);
  });
  return { url, workerUrls };
}

/**
 * Creates database `name` on the cluster whose coordinator `adminUrl` names, by the steps of
 * {@link prepareCitusDatabase}, then migrates and distributes it with the code of `npm run
 * db:migrate` and `npm run db:distribute` (in this process, TEST_SHARD_COUNT shards a table).
 * @returns its URL on the coordinator.
 */
export async function createCitusDatabase(adminUrl: string, name: string): Promise<string> {
  const { url } = await prepareCitusDatabase(adminUrl, name);
  const database = openPostgres(url, 2);
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
  await withClient(url, (c) => distributeTables(c, { shardCount: TEST_SHARD_COUNT }));
  return url;
}

/** Drops database `name` on the coordinator and every worker. */
export async function dropCitusDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    await c.query('set citus.enable_create_database_propagation = on');
    await c.query(`drop database if exists ${name} with (force)`);
  });
}
