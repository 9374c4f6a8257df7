/**
 * `npm run db:migrate` as an operator runs it (a child process with the server's variables): two
 * at once on a new PostgreSQL database both succeed and apply each migration once (the schema
 * lock), a third finds nothing to do; on the embedded database it refuses a data directory a
 * server holds. The PostgreSQL part runs when DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { lockDataDir } from '../server/db/client';
import { latestMigration } from '../server/modules/health/service';
import { TEST_APP_SECRET } from '../server/test/harness';
import { databaseUrlFor, withClient } from '../server/db/pg-url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run db:migrate -- …args` with only `env` (and PATH); answers its exit code and output. */
function migrate(env: Record<string, string>, args: string[] = []): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts', ...args], { cwd: root, env: { PATH: process.env.PATH, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? -1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe.skipIf(!inject('pgTemplateUrl'))('db:migrate on PostgreSQL', () => {
  const adminUrl = databaseUrlFor(inject('pgTemplateUrl')!, 'postgres');
  const name = `${inject('pgRunPrefix')}migrate_${randomBytes(4).toString('hex')}`;

  afterAll(() => withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)));

  it('migrates a new database once when run twice at once, then finds it up to date', async () => {
    await withClient(adminUrl, (c) => c.query(`create database ${name}`));
    const env = { DATABASE_URL: databaseUrlFor(adminUrl, name), APP_SECRET: TEST_APP_SECRET };

    const runs = await Promise.all([migrate(env), migrate(env)]);
    for (const run of runs) expect(run, run.output).toMatchObject({ code: 0 });
    const [applied] = await withClient(env.DATABASE_URL, async (c) => (await c.query('select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations')).rows);
    expect(applied.n).toBe(applied.d);
    expect(runs.map((r) => r.output).join('\n')).toContain(`Applied ${applied.n} migrations`);

    const again = await migrate(env);
    expect(again, again.output).toMatchObject({ code: 0 });
    expect(again.output).toContain(`Up to date: PostgreSQL (DATABASE_URL) (${latestMigration().tag})`);
  }, 120_000);
});

describe('db:migrate on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'inv-migrate-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a data directory a server holds', async () => {
    const release = await lockDataDir(dataDir);
    try {
      const run = await migrate({ DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.output).toContain('is in use by another server process');
    } finally {
      await release();
    }
  }, 60_000);

  it('prints its usage with --help, and refuses an unknown option with exit code 2', async () => {
    const help = await migrate({ DATA_DIR: dataDir }, ['--help']);
    expect(help).toMatchObject({ code: 0, output: expect.stringContaining('Usage: npm run db:migrate') });
    expect((await migrate({ DATA_DIR: dataDir }, ['--all'])).code).toBe(2);
  }, 60_000);
});
