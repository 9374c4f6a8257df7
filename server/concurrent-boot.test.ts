/**
 * Several servers starting at once on a new PostgreSQL database (docs/operations.md "Starting
 * several servers"): three real server processes (`dist/server.mjs`, bundled first, as the
 * browser tests start it) spawned together on a throw-away database must all come up and answer /api/health and
 * /api/ready, then stop cleanly on SIGTERM. Before the schema lock covered pg-boss's queues
 * (server/db/schema-lock.ts), two of three died at boot with "deadlock detected". Runs when
 * DATABASE_URL is set; ~15 s.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleServer, freePort, startServer, type RunningServer } from '../e2e/fixtures/server';
import { migrationsFolder } from './paths';
import { databaseUrlFor } from './db/pg-url';

const SERVERS = 3;

describe.skipIf(!inject('pgTemplateUrl'))('servers booting together on a new PostgreSQL database', () => {
  const adminUrl = databaseUrlFor(inject('pgTemplateUrl')!, 'postgres');
  // Under this run's prefix, so the global teardown drops it even when this file is cut short.
  const name = `${inject('pgRunPrefix')}boot_${randomBytes(4).toString('hex')}`;
  const servers: RunningServer[] = [];

  /** Runs `statement` on the database `url` and returns its rows. */
  const query = async (url: string, statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(statement)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const admin = (statement: string) => query(adminUrl, statement);

  beforeAll(() => bundleServer());
  afterAll(async () => {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('all come up, migrated once, and stop cleanly', async () => {
    await admin(`create database ${name}`);
    const env = { DATABASE_URL: databaseUrlFor(adminUrl, name), APP_SECRET: randomBytes(32).toString('base64url') };
    const ports = await Promise.all(Array.from({ length: SERVERS }, () => freePort()));
    const started = await Promise.allSettled(ports.map((port) => startServer(port, env)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'up'))).toEqual(ports.map(() => 'up'));

    for (const server of servers) {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    }
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const [applied] = await query(env.DATABASE_URL, 'select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations');
    expect(applied).toEqual({ n: journal.entries.length, distinct: journal.entries.length });

    const stopping = servers.splice(0);
    await Promise.all(stopping.map((s) => s.stop()));
  }, 120_000);
});
