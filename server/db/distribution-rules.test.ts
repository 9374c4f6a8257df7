import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, openTestDatabase } from '../test/harness';
import { queryRows, type Database } from './client';
import { distributionProblems, type CatalogQuery } from './distribution-rules';

describe.each(backends)('the schema follows the rules of a distribution by tenant on %s', (backend) => {
  let database: Database;
  let query: CatalogQuery;
  beforeAll(async () => {
    database = await openTestDatabase(backend);
    query = (text) => queryRows(database.db, sql.raw(text));
  });
  afterAll(async () => {
    await database?.close();
  });

  it('finds nothing wrong in the migrated schema', async () => {
    expect(await distributionProblems(query)).toEqual([]);
  });

  it('names each deliberate violation', async () => {
    await database.db.execute(sql`create table zz_codes (tenant_id uuid not null, id uuid not null, code text not null unique, primary key (tenant_id, id))`);
    await database.db.execute(sql`create table zz_global (id int primary key)`);
    await database.db.execute(sql`create table zz_lines (tenant_id uuid not null, unit_id uuid not null, code text references zz_codes (code), foreign key (tenant_id, unit_id) references units (tenant_id, id) on update cascade)`);
    await database.db.execute(sql`create function zz_ping() returns trigger language plpgsql as $$ begin perform pg_notify('x', 'y'); return null; end $$`);
    await database.db.execute(sql`create trigger zz_ping after insert on garages for each statement execute function zz_ping()`);
    const problems = (await distributionProblems(query)).map((p) => `${p.table}: ${p.problem}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^zz_codes: unique index zz_codes_code_key \(code\) does not hold tenant_id/),
        expect.stringMatching(/^zz_global: has no tenant_id and is not named a reference or coordinator table/),
        expect.stringMatching(/^zz_lines: foreign key zz_lines_code_fkey to zz_codes does not hold tenant_id on both sides/),
        expect.stringMatching(/^zz_lines: foreign key zz_lines_tenant_id_unit_id_fkey rewrites a key holding tenant_id on update/),
        expect.stringMatching(/^garages: statement-level trigger zz_ping/),
        expect.stringMatching(/^garages: trigger zz_ping sends a notification/),
      ]),
    );
    expect(problems).toHaveLength(6);
  });
});
