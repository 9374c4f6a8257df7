/**
 * Stopping the job queue (queue.ts): the server closes its database right after `stop`, so
 * nothing the queue started may still be running then, on PostgreSQL or on PGlite. And its schema
 * (installJobSchema, decision 056): left alone at this version, migrated by pg-boss's own plan
 * from an older one, refused when newer; on PGlite, PostgreSQL and (in the Citus suite) a Citus
 * coordinator.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { backends, createTestApp, type TestApp } from '../test/harness';
import { installJobSchema, JOB_SCHEMA_VERSION, startJobQueue } from './queue';

describe.each(backends)('stopping the job queue on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('waits for the job that a fetch sent before the stop brings back, and records its outcome', async () => {
    const name = 'queue-stop-test';
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    await queue.createQueue(name, { name });
    const id = await queue.boss.send(name, {});
    let finished = false;
    // The worker sends its first fetch as it is registered: the stop that follows at once finds
    // no job handed out yet, and the fetch comes back with one afterwards.
    await queue.work(name, { pollingIntervalSeconds: 0.5 }, async () => {
      await sleep(300);
      await t.database.db.execute(sql`select 1`);
      finished = true;
    });
    await queue.stop();
    expect(finished).toBe(true);
    const [job] = await queryRows<{ state: string }>(t.database.db, sql`select state::text from pgboss.job where id = ${id}`);
    expect(job?.state).toBe('completed');
  });

  it("leaves its schema alone at this version, migrates an older one with pg-boss's plan, and refuses a newer one", async () => {
    const version = async () => (await queryRows<{ version: number }>(t.database.db, sql`select version::int as version from pgboss.version`))[0]?.version;
    // The test above started the queue: the schema is there.
    expect(await installJobSchema(t.database)).toBe('current');
    await t.database.db.execute(sql`update pgboss.version set version = ${JOB_SCHEMA_VERSION - 1}`);
    expect(await installJobSchema(t.database)).toBe('migrated');
    expect(await version()).toBe(JOB_SCHEMA_VERSION);
    await t.database.db.execute(sql`update pgboss.version set version = ${JOB_SCHEMA_VERSION + 1}`);
    await expect(installJobSchema(t.database)).rejects.toThrow(`newer than this release's ${JOB_SCHEMA_VERSION}`);
    await t.database.db.execute(sql`update pgboss.version set version = ${JOB_SCHEMA_VERSION}`);
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    await queue.stop();
  });
});
