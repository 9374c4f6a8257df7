/**
 * The schema on a Citus cluster (server/db/distribution.ts): run by the Citus suite only
 * (`npm run test:citus`), each file's database migrated and distributed by server/test/citus.ts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openTestDatabase } from '../test/harness';
import { queryRows, type Database } from './client';
import { COORDINATOR_TABLES, distributeTables, DISTRIBUTION_COLUMN, REFERENCE_TABLES } from './distribution';
import { sqlStateOf } from './sql-state';
import { withTenant } from './tenant-tx';

describe.skipIf(!inject('citusUrl'))('the schema distributed by tenant on Citus', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('distributes every company table by tenant_id in one co-location group, copies the global ones to every node and keeps the rest on the coordinator', async () => {
    const tables = await queryRows<{ name: string; tenant: boolean; method: string | null; column: string | null; colocation: number | null }>(
      database.db,
      sql`select c.relname as name,
                 exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = ${DISTRIBUTION_COLUMN}) as tenant,
                 p.partmethod::text as method, column_to_column_name(p.logicalrelid, p.partkey) as column, p.colocationid as colocation
          from pg_class c left join pg_dist_partition p on p.logicalrelid = c.oid
          where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`,
    );
    const company = tables.filter((t) => t.tenant);
    expect(company.length).toBeGreaterThan(20);
    for (const t of company) expect({ name: t.name, method: t.method, column: t.column }).toEqual({ name: t.name, method: 'h', column: DISTRIBUTION_COLUMN });
    expect(new Set(company.map((t) => t.colocation)).size).toBe(1);
    const byName = new Map(tables.map((t) => [t.name, t]));
    for (const name of REFERENCE_TABLES) expect(byName.get(name)?.method, name).toBe('n');
    for (const name of COORDINATOR_TABLES) expect(byName.get(name)?.method, name).toBeNull();
    const [placed] = await queryRows<{ nodes: number }>(
      database.db,
      sql`select count(distinct nodeport)::int as nodes from pg_dist_shard_placement p join pg_dist_shard s using (shardid) where s.logicalrelid = 'garages'::regclass`,
    );
    expect(placed!.nodes).toBe(2);
  });

  it('leaves an already distributed database as it is when run again', async () => {
    const client = await database.pool!.connect();
    try {
      expect(await distributeTables(client)).toEqual({ distributed: [], reference: [] });
    } finally {
      client.release();
    }
  });

  it('scopes a tenant transaction on the workers: each company reads its own rows only, nothing without a company', async () => {
    // Companies whose rows land on different workers, written as the superuser (row-level
    // security does not apply to it); read back through tenant transactions, as the app reads.
    const tenants = Array.from({ length: 8 }, () => randomUUID());
    for (const id of tenants) {
      await database.db.execute(sql`insert into tenants (id, name, slug) values (${id}, ${id}, ${id})`);
      await database.db.execute(sql`insert into garages (tenant_id, name, address) values (${id}, ${`Storage of ${id}`}, 'x')`);
    }
    const [spread] = await queryRows<{ nodes: number }>(
      database.db,
      sql`select count(distinct get_shard_id_for_distribution_column('garages', t))::int as nodes from unnest(${`{${tenants.join(',')}}`}::uuid[]) t`,
    );
    expect(spread!.nodes).toBeGreaterThan(1);
    for (const id of tenants) {
      const seen = await withTenant(database.db, id, (tx) => queryRows<{ name: string }>(tx, sql`select name from garages`));
      expect(seen.map((g) => g.name)).toEqual([`Storage of ${id}`]);
    }
    const nobody = await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw('set local role inventory_app'));
      return queryRows(tx, sql`select 1 from garages`);
    });
    expect(nobody).toEqual([]);
  });

  it('refuses a write into another company on the worker that holds it', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    for (const id of [a, b]) await database.db.execute(sql`insert into tenants (id, name, slug) values (${id}, ${id}, ${id})`);
    const refused = await withTenant(database.db, a, (tx) => tx.execute(sql`insert into garages (tenant_id, name, address) values (${b}, 'Not mine', 'x')`)).catch((e: unknown) => e);
    // 42501: new row violates row-level security policy.
    expect(sqlStateOf(refused)).toBe('42501');
    const [rows] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from garages where tenant_id = ${b}`);
    expect(rows!.n).toBe(0);
  });
});
