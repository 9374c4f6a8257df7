/**
 * `npm run backup` and `npm run restore` as an operator runs them (child processes with the
 * server's variables), on both databases: a database with several companies (the demo operator
 * and two more with stock moved) and pg-boss jobs is backed up, restored into a new database, and
 * every table of every schema (public, drizzle's, pg-boss's) is compared row by row, as an ordered
 * row set, with its source; sequences too. Then the refusals: a non-empty database, a PostgreSQL
 * role that row-level security filters, a data directory in use. The PostgreSQL part runs when
 * DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lockDataDir, pgliteDirOf } from '../server/db/client';
import { startJobQueue } from '../server/jobs/queue';
import { api, backends, createTestApp, TEST_APP_SECRET, type TestApp } from '../server/test/harness';
import { databaseUrlFor } from '../server/db/pg-url';
import { stockTenant } from '../server/test/stock-fixtures';
import { seedDemo } from './demo/seed';

const root = fileURLToPath(new URL('..', import.meta.url));
const SETUP_TIMEOUT = 240_000;
const COMMAND_TIMEOUT = 120_000;

/** Runs `npm run <script> -- …args` as `node --import tsx scripts/<script>.ts` with only `env` (and PATH). */
function command(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `scripts/${script}.ts`, ...args],
      { cwd: root, env: { PATH: process.env.PATH, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? -1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Runs one SQL text and answers its rows. */
type Run = (text: string) => Promise<{ rows: unknown[] }>;

/**
 * Every table's rows as one digest per table (md5 of its rows' text, ordered), and every
 * sequence's state, keyed by schema-qualified name: equal maps mean equal databases, row for row.
 */
async function contents(run: Run): Promise<Record<string, string>> {
  const { rows } = await run(
    `select format('%I.%I', n.nspname, c.relname) as name, c.relkind as kind
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'S') and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
      order by 1`,
  );
  const result: Record<string, string> = {};
  for (const { name, kind } of rows as { name: string; kind: string }[]) {
    const query =
      kind === 'S'
        ? `select last_value || ':' || is_called as digest from ${name}`
        : `select count(*) || ':' || md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) as digest from ${name} r`;
    result[name] = ((await run(query)).rows[0] as { digest: string }).digest;
  }
  return result;
}

/** Runs `fn` on a client of `url`. */
async function onPostgres<T>(url: string, fn: (run: Run) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn((text) => client.query(text));
  } finally {
    await client.end();
  }
}

/** Runs `fn` on the embedded database of `dataDir`. */
async function onPglite<T>(dataDir: string, fn: (run: Run) => Promise<T>): Promise<T> {
  const db = await PGlite.create({ dataDir: pgliteDirOf(dataDir) });
  try {
    return await fn((text) => db.query(text));
  } finally {
    await db.close();
  }
}

/** What the restore must bring back beyond tables: several companies' movements and queued jobs. */
async function companiesAndJobs(run: Run): Promise<{ companies: number; jobs: number }> {
  const { rows } = await run(
    'select (select count(distinct tenant_id) from inventory_logs)::int as companies, (select count(*) from pgboss.job)::int as jobs',
  );
  return rows[0] as { companies: number; jobs: number };
}

describe.each(backends)('backup and restore on %s', (backend) => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'inv-backup-'));

  beforeAll(async () => {
    t = await createTestApp(backend);
    await seedDemo(t.database, { now: new Date() });
    for (const email of ['north@backup.example', 'south@backup.example']) {
      const tenant = await stockTenant(t, email);
      const items = Object.values(tenant.itemIds);
      const stocked = await api(t, tenant.cookie, 'PUT', `/api/garages/${tenant.garageId}/inventory`, {
        inventory: items.map((id) => ({ item_id: id, quantity: 40 })),
      });
      expect(stocked.statusCode).toBe(200);
      for (const id of items) {
        const moved = await api(t, tenant.cookie, 'POST', `/api/units/${tenant.unitId}/inventory/${id}/transfer`, { quantity: 7 });
        expect(moved.statusCode).toBe(200);
      }
    }
    const queue = await startJobQueue(t.database);
    await queue.createQueue('backup-test', { name: 'backup-test' });
    await queue.boss.send('backup-test', { note: 'a job waiting when the backup is made' }, { startAfter: 3600 });
    await queue.stop();
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  if (backend === 'postgres') {
    const templateUrl = inject('pgTemplateUrl')!;
    const prefix = inject('pgRunPrefix');
    const restoredUrl = databaseUrlFor(templateUrl, `${prefix}restored`);
    const file = join(dir, 'backup.dump');
    const roles = { filtered: `${prefix}filtered`, backup: `${prefix}backup` };
    let sourceUrl: string;

    beforeAll(async () => {
      const [row] = (await t.database.pool!.query<{ db: string }>('select current_database() as db')).rows;
      sourceUrl = databaseUrlFor(templateUrl, row!.db);
      await onPostgres(sourceUrl, async (run) => {
        await run(`create role ${roles.filtered} login`);
        await run(`create role ${roles.backup} login bypassrls in role pg_read_all_data`);
      });
    });

    afterAll(async () => {
      await onPostgres(databaseUrlFor(templateUrl, 'postgres'), async (run) => {
        await run(`drop database if exists ${prefix}restored with (force)`);
        for (const role of Object.values(roles)) await run(`drop role if exists ${role}`);
      });
    });

    it(
      'restores into a new database every row of every table, as backed up',
      async () => {
        const backup = await command('backup', [file], { DATABASE_URL: sourceUrl, APP_SECRET: TEST_APP_SECRET });
        expect(backup, backup.output).toMatchObject({ code: 0 });
        expect(backup.output).toContain('Backed up and checked');

        const restore = await command('restore', [file], { DATABASE_URL: restoredUrl, APP_SECRET: TEST_APP_SECRET });
        expect(restore, restore.output).toMatchObject({ code: 0 });
        expect(restore.output).toContain(`Created the database ${prefix}restored`);

        const source = await onPostgres(sourceUrl, contents);
        expect(await onPostgres(restoredUrl, contents)).toEqual(source);
        expect(Object.keys(source)).toEqual(expect.arrayContaining(['public.tenants', 'public.inventory_logs', 'pgboss.queue', 'drizzle.__drizzle_migrations']));
        expect(await onPostgres(restoredUrl, companiesAndJobs)).toEqual({ companies: 3, jobs: 1 });
      },
      COMMAND_TIMEOUT,
    );

    it(
      'refuses a database that is not empty, and replaces it with --clean',
      async () => {
        const refused = await command('restore', [file], { DATABASE_URL: restoredUrl, APP_SECRET: TEST_APP_SECRET });
        expect(refused.code).toBe(1);
        expect(refused.output).toContain('is not empty');

        const clean = await command('restore', [file, '--clean'], { DATABASE_URL: restoredUrl, APP_SECRET: TEST_APP_SECRET });
        expect(clean, clean.output).toMatchObject({ code: 0 });
        expect(await onPostgres(restoredUrl, contents)).toEqual(await onPostgres(sourceUrl, contents));
      },
      COMMAND_TIMEOUT,
    );

    it(
      'refuses a role that row-level security filters, and backs up every row as a BYPASSRLS role',
      async () => {
        const asRole = (role: string) => {
          const u = new URL(sourceUrl);
          u.username = role;
          return u.toString();
        };
        const filteredFile = join(dir, 'filtered.dump');
        const refused = await command('backup', [filteredFile], { DATABASE_URL: asRole(roles.filtered), APP_SECRET: TEST_APP_SECRET });
        expect(refused.code).toBe(1);
        expect(refused.output).toContain(`The role ${roles.filtered} cannot back up every company's rows`);
        expect(existsSync(filteredFile) || existsSync(`${filteredFile}.partial`)).toBe(false);

        const backup = await command('backup', [join(dir, 'bypass.dump')], { DATABASE_URL: asRole(roles.backup), APP_SECRET: TEST_APP_SECRET });
        expect(backup, backup.output).toMatchObject({ code: 0 });
        const rows = (output: string) => /(\d[\d,]*) rows/.exec(output)?.[1];
        const superuser = await command('backup', [join(dir, 'superuser.dump')], { DATABASE_URL: sourceUrl, APP_SECRET: TEST_APP_SECRET });
        expect(rows(backup.output)).toBe(rows(superuser.output));
      },
      COMMAND_TIMEOUT,
    );
  } else {
    const source = join(dir, 'source');
    const restored = join(dir, 'restored');
    const file = join(dir, 'backup.tar.gz');

    beforeAll(async () => {
      // The test's database is in memory: its dump becomes a data directory, as a server's is.
      const client = (t.database.db as unknown as { $client: PGlite }).$client;
      mkdirSync(source);
      const onDisk = await PGlite.create({ dataDir: pgliteDirOf(source), loadDataDir: await client.dumpDataDir('none') });
      await onDisk.close();
    }, SETUP_TIMEOUT);

    it(
      'restores into a new data directory every row of every table, as backed up',
      async () => {
        const backup = await command('backup', [file], { DATA_DIR: source });
        expect(backup, backup.output).toMatchObject({ code: 0 });
        expect(backup.output).toContain('Backed up and checked');

        const restore = await command('restore', [file], { DATA_DIR: restored });
        expect(restore, restore.output).toMatchObject({ code: 0 });
        expect(restore.output).toContain('app-secret');

        const before = await onPglite(source, contents);
        expect(await onPglite(restored, contents)).toEqual(before);
        expect(Object.keys(before)).toEqual(expect.arrayContaining(['public.tenants', 'public.inventory_logs', 'pgboss.queue', 'drizzle.__drizzle_migrations']));
        expect(await onPglite(restored, companiesAndJobs)).toEqual({ companies: 3, jobs: 1 });
      },
      COMMAND_TIMEOUT,
    );

    it(
      'refuses a data directory that holds a database, and replaces it with --clean',
      async () => {
        const refused = await command('restore', [file], { DATA_DIR: restored });
        expect(refused.code).toBe(1);
        expect(refused.output).toContain('holds an embedded database already');

        const clean = await command('restore', [file, '--clean'], { DATA_DIR: restored });
        expect(clean, clean.output).toMatchObject({ code: 0 });
        expect(existsSync(`${pgliteDirOf(restored)}.restoring`)).toBe(false);
        expect(await onPglite(restored, contents)).toEqual(await onPglite(source, contents));
      },
      COMMAND_TIMEOUT,
    );

    it(
      'refuses while a server holds the data directory',
      async () => {
        const release = await lockDataDir(source);
        try {
          const refused = await command('backup', [join(dir, 'locked.tar.gz')], { DATA_DIR: source });
          expect(refused.code).toBe(1);
          expect(refused.output).toContain('is in use by another server process');
          expect(existsSync(join(dir, 'locked.tar.gz'))).toBe(false);
        } finally {
          await release();
        }
      },
      COMMAND_TIMEOUT,
    );
  }
});
