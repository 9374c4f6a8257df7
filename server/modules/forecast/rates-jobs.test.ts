/**
 * The learned rates' background refresh (rates.ts, docs/decisions/033-job-queue.md): a pg-boss
 * job per company on the product's own database, which queues the company's next run.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { startJobQueue } from '../../jobs/queue';
import { backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { freshRates, RATES_JOB, RATES_REFRESH_HOURS, startRatesJobs } from './rates';

describe.each(backends)('usage rates refreshed in the background (%s)', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'rates-jobs@example.com');
  });
  afterAll(() => t.close());

  const learned = async () =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from item_usage_rates where tenant_id = ${s.tenantId}`))[0]!.n;
  const jobs = async () =>
    queryRows<{ state: string; later: boolean; tenant: string; output: unknown }>(
      t.database.db,
      sql`select state::text, start_after > now() + make_interval(hours => ${RATES_REFRESH_HOURS - 1}) as later, data->>'tenantId' as tenant, output
          from pgboss.job where name = ${RATES_JOB} order by created_on`,
    );

  it('schedules a company after its first refresh, learns again when its job runs, and ends the chain of a company that is gone', async () => {
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    try {
      const afterLearning: string[] = [];
      await startRatesJobs(queue, t.database.db, () => new Date(), async (tenantId) => void afterLearning.push(tenantId));
      await freshRates(t.database.db, s.tenantId, new Date());
      expect(await learned()).toBe(2);
      expect((await jobs()).map((j) => [j.tenant, j.state, j.later])).toEqual([[s.tenantId, 'created', true]]);

      // A run now learns the rates again and keeps one next run waiting.
      await t.database.db.execute(sql`delete from item_usage_rates where tenant_id = ${s.tenantId}`);
      await queue.boss.send(RATES_JOB, { tenantId: s.tenantId });
      for (let i = 0; i < 80 && (await learned()) === 0; i++) await sleep(250);
      expect(await learned()).toBe(2);
      for (let i = 0; i < 40 && afterLearning.length === 0; i++) await sleep(100);
      expect(afterLearning).toEqual([s.tenantId]);
      const waiting = (await jobs()).filter((j) => j.tenant === s.tenantId && j.later && j.state === 'created');
      expect(waiting).toHaveLength(1);

      const gone = randomUUID();
      await queue.boss.send(RATES_JOB, { tenantId: gone });
      let done: { state: string; output: unknown } | undefined;
      for (let i = 0; i < 80 && done?.state !== 'completed'; i++) {
        await sleep(250);
        done = (await jobs()).find((j) => j.tenant === gone);
      }
      expect(done).toMatchObject({ state: 'completed', output: { skipped: 'no such company' } });
      expect((await jobs()).filter((j) => j.tenant === gone && j.later)).toEqual([]);
      expect(afterLearning).toEqual([s.tenantId]);
    } finally {
      await queue.stop();
    }
  }, 60_000);
});
