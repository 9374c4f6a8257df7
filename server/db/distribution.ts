/**
 * How the schema is spread over a Citus cluster (docs/operations.md "Moving to Citus",
 * docs/decisions/042-citus-distribution.md): every table with a `tenant_id` is distributed by it,
 * all co-located, so a tenant's rows of every table live on one node and a tenant transaction is
 * routed to that node alone; the global tables that tenant tables refer to are reference tables
 * (a copy on every node); the rest stays on the coordinator.
 *
 * `distributeTables` is what `npm run db:distribute` runs on a migrated database whose coordinator
 * has the Citus extension and its workers added. It is idempotent: a table already distributed
 * is left alone, so it can run again after a migration adds a table.
 */
import type pg from 'pg';
import { APP_ROLE } from './tenant-tx';

/**
 * Global tables copied to every node: tenant tables hold foreign keys to them (users, tiers,
 * tenants) or a tenant transaction reads them beside tenant rows (sessions for the access gate).
 */
export const REFERENCE_TABLES = ['tenants', 'users', 'sessions', 'accounts', 'verifications', 'subscription_tiers', 'processed_webhook_events'] as const;

/** Global tables that stay on the coordinator only: nothing refers to them and only the servers use them. */
export const COORDINATOR_TABLES = ['rate_limits'] as const;

/** The distribution column of every tenant table. */
export const DISTRIBUTION_COLUMN = 'tenant_id';

/** Shards per distributed table (Citus's default is 32; tests use fewer). */
export interface DistributeOptions {
  shardCount?: number;
}

/** What `distributeTables` did: the tables it distributed and made reference tables now. */
export interface DistributionResult {
  distributed: string[];
  reference: string[];
}

/**
 * Distributes the public schema's tables on the Citus coordinator `client` is connected to (a
 * superuser, in a database where `create extension citus` ran on every node and the workers were
 * added), in one transaction:
 * - foreign keys between tables about to change are dropped and made again afterwards (Citus
 *   refuses a key from a table not yet distributed to one that is);
 * - REFERENCE_TABLES become reference tables, then every table with `tenant_id` is distributed by
 *   it, all in one co-location group, and the tenant policies take the form Citus can plan
 *   (CITUS_TENANT_POLICIES);
 * - the database's settings for the application: `SET LOCAL` reaches the workers
 *   (`citus.propagate_set_commands`), triggers may exist on distributed tables and write from
 *   the shard's node (they only write co-located rows of the same tenant), a query of several shards uses one connection per node
 *   (`citus.multi_shard_modify_mode`), and the application role may log in on the workers, where
 *   Citus connects as the current user.
 * @returns the tables changed by this run (empty lists when everything was distributed already).
 * @throws the database's error when the extension is missing or a table breaks a Citus rule
 *   (`npm run check:distribution` names those before).
 */
export async function distributeTables(client: pg.Client | pg.PoolClient, opts: DistributeOptions = {}): Promise<DistributionResult> {
  const { rows: tables } = await client.query<{ name: string; tenant: boolean; done: boolean }>(
    `select c.relname as name,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = $1 and not a.attisdropped) as tenant,
            exists (select 1 from pg_dist_partition p where p.logicalrelid = c.oid) as done
     from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' order by c.relname`,
    [DISTRIBUTION_COLUMN],
  );
  const pending = tables.filter((t) => !t.done);
  const reference = pending.filter((t) => (REFERENCE_TABLES as readonly string[]).includes(t.name)).map((t) => t.name);
  const distributed = pending.filter((t) => t.tenant).map((t) => t.name);
  const database = (await client.query<{ db: string }>('select current_database() as db')).rows[0]!.db;
  await client.query('begin');
  try {
    await client.query('set local citus.enable_unsafe_triggers = on');
    await client.query(`set local citus.multi_shard_modify_mode = 'sequential'`);
    if (opts.shardCount) await client.query(`set local citus.shard_count = ${Math.trunc(opts.shardCount)}`);
    const changing = [...reference, ...distributed];
    const { rows: keys } = await client.query<{ rel: string; name: string; def: string }>(
      `select conrelid::regclass::text as rel, conname as name, pg_get_constraintdef(oid) as def
       from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace
         and (conrelid::regclass::text = any($1) or confrelid::regclass::text = any($1))`,
      [changing],
    );
    for (const k of keys) await client.query(`alter table ${k.rel} drop constraint ${quoteIdent(k.name)}`);
    for (const t of reference) await client.query('select create_reference_table($1)', [t]);
    // Co-located with a table distributed before, or the first of this run starts the group.
    const anchor = tables.find((t) => t.tenant && t.done)?.name;
    for (const t of distributed) {
      const colocateWith = anchor ?? (t === distributed[0] ? 'none' : distributed[0]!);
      await client.query('select create_distributed_table($1, $2, colocate_with => $3)', [t, DISTRIBUTION_COLUMN, colocateWith]);
    }
    for (const k of keys) await client.query(`alter table ${k.rel} add constraint ${quoteIdent(k.name)} ${k.def}`);
    await client.query(CITUS_TENANT_POLICIES);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
  // Settings of the database, read by every later session (ALTER DATABASE cannot run in a transaction block).
  await client.query(`alter database ${quoteIdent(database)} set citus.propagate_set_commands = 'local'`);
  await client.query(`alter database ${quoteIdent(database)} set citus.enable_unsafe_triggers = on`);
  // The totals' row triggers (migration 0033) run on the worker holding the changed row and write
  // rows of the same company, which live in the co-located shards of that worker.
  await client.query(`alter database ${quoteIdent(database)} set citus.allow_nested_distributed_execution = on`);
  // A transaction that wrote a reference table (tenants, users, sessions) after a query that used
  // parallel connections to the shards is refused; one connection per node keeps both possible.
  await client.query(`alter database ${quoteIdent(database)} set citus.multi_shard_modify_mode = 'sequential'`);
  await client.query(`alter role ${APP_ROLE} login`);
  return { distributed, reference };
}

/**
 * Every tenant policy (decision 013) rewritten for Citus: `tenant_id = ANY (ARRAY[<tenant>])`
 * instead of `tenant_id = <tenant>`, the same rows. With the equality, PostgreSQL puts the policy
 * and a query's own `tenant_id = $1` in one equivalence class and derives `$1 = <tenant>` as a
 * pseudoconstant condition, and Citus on PostgreSQL 15 and 16 refuses every outer join of
 * distributed tables that carries one ("Distributed queries with outer joins and pseudoconstant
 * quals are not supported"); an array comparison is no equivalence. Only on Citus: on one
 * PostgreSQL server the equality's estimates give the plans the budgets were measured with (with
 * this form a large company's Dashboard took 26 ms of PostgreSQL instead of 2 ms; comparing
 * `tenant_id::text` instead took 2.1 ms, but its estimates sent the forecast past the statement
 * timeout; docs/performance-history.md "Row-level totals and company writes on Citus"). Run again after a migration that adds a tenant table.
 */
const CITUS_TENANT_POLICIES = `DO $$
DECLARE
  p record;
  v_filter text;
BEGIN
  FOR p IN SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'tenant_isolation' ORDER BY tablename LOOP
    v_filter := format($f$%I = ANY (ARRAY[nullif(current_setting('app.tenant_id', true), '')::uuid])$f$,
                       CASE WHEN p.tablename = 'tenants' THEN 'id' ELSE 'tenant_id' END);
    EXECUTE format('ALTER POLICY tenant_isolation ON %I USING (%s) WITH CHECK (%s)', p.tablename, v_filter, v_filter);
  END LOOP;
END
$$`;

/** `name` as a quoted SQL identifier. */
function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
