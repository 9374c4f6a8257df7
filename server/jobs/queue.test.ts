/**
 * Stopping the job queue (queue.ts): the server closes its database right after `stop`, so
 * nothing the queue started may still be running then, on PostgreSQL or on PGlite.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { backends, createTestApp, type TestApp } from '../test/harness';
import { startJobQueue } from './queue';

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
});
