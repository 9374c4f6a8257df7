/**
 * docs/sql-functions.md matches the migrations: the text `npm run db:functions` would write, made
 * here on the migrated PGlite database the tests share, is the committed file's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { wrapPglite, type Database } from '../server/db/client';
import { functionMigrations, SQL_FUNCTIONS_DOC, sqlFunctionsDocument } from './sql-functions';

describe('docs/sql-functions.md', () => {
  let database: Database;

  beforeAll(async () => {
    // The migrated snapshot of server/test/global-setup.ts: the harness's PGlite, without the app.
    database = wrapPglite(await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) }));
  });
  afterAll(async () => {
    await database.close();
  });

  it('is what npm run db:functions writes for the current migrations', async () => {
    const generated = await sqlFunctionsDocument(database);
    const committed = readFileSync(SQL_FUNCTIONS_DOC, 'utf8');
    expect(generated === committed, 'docs/sql-functions.md is out of date: run npm run db:functions').toBe(true);
  });

  it('names the migrations that create, replace or drop a function, quoted or not, comments left out', () => {
    const folder = mkdtempSync(join(tmpdir(), 'sql-functions-'));
    try {
      writeFileSync(join(folder, '0001_a.sql'), 'CREATE FUNCTION "f"(x int) RETURNS int LANGUAGE sql AS $$ select x $$;\n-- CREATE FUNCTION g()\n');
      writeFileSync(join(folder, '0002_b.sql'), 'DROP FUNCTION "f"(int);--> statement-breakpoint\ncreate function public.f(x bigint) returns int language sql as $$ select 1 $$;\n');
      writeFileSync(join(folder, '0003_c.sql'), 'create or replace function f(x bigint) returns int language sql as $$ select 2 $$;\n');
      expect(Object.fromEntries(functionMigrations(folder))).toEqual({
        f: [
          { file: '0001_a.sql', actions: ['created'] },
          { file: '0002_b.sql', actions: ['dropped', 'created'] },
          { file: '0003_c.sql', actions: ['replaced'] },
        ],
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
