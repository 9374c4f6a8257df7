/**
 * Runs once before the test files: migrates a PGlite database and dumps it (but in the Citus suite), so each file loads
 * a migrated copy in ~0.6 s; with DATABASE_URL set, also migrates a
 * template database on that PostgreSQL server, from which each file clones a fresh database.
 * With CITUS_URL set (the Citus suite, scripts/test-citus.ts), each file makes its own database on
 * that cluster instead (server/test/citus.ts) and no PostgreSQL template is made.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres, wrapPglite } from '../db/client';
import { runMigrations } from '../db/migrate';
import { databaseUrlFor } from '../db/pg-url';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplateUrl: string | null;
    /** The Citus coordinator's `postgres` database, in the Citus suite; else null. */
    citusUrl: string | null;
    /** Prefix of this run's per-file databases, so concurrent runs never drop each other's. */
    pgRunPrefix: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'inv-test-'));
  const citusUrl = process.env.CITUS_URL ?? null;
  // The Citus suite runs on the cluster only (harness.ts `backends`): no embedded snapshot (~11 s).
  if (!citusUrl) {
    const client = await PGlite.create();
    await runMigrations(wrapPglite(client));
    const dump = await client.dumpDataDir('none');
    const snapshot = join(dir, 'snapshot.tar');
    writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()));
    await client.close();
    project.provide('pgliteSnapshot', snapshot);
  }

  project.provide('citusUrl', citusUrl);
  const baseUrl = citusUrl ? undefined : process.env.DATABASE_URL;
  const run = `${process.pid}x${Date.now().toString(36)}`;
  const prefix = `inv_t_${run}_`;
  project.provide('pgRunPrefix', prefix);
  let templateName: string | null = null;
  if (baseUrl) {
    templateName = `inv_tpl_${run}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${templateName}`);
    const template = openPostgres(databaseUrlFor(baseUrl, templateName), 2);
    await runMigrations(template);
    await template.close();
    await admin.end();
  }
  project.provide('pgTemplateUrl', baseUrl && templateName ? databaseUrlFor(baseUrl, templateName) : null);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (baseUrl && templateName) {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        // Only this run's databases: starts_with, as LIKE would read '_' as a wildcard.
        `select datname from pg_database where starts_with(datname, $1) or datname = $2`,
        [prefix, templateName],
      );
      for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.end();
    }
  };
}
