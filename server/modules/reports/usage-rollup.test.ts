/**
 * The usage totals (migration 0006, docs/decisions/007-usage-rollups.md) always equal the sums
 * of the ledger's usage rows — per unit and day, and per current garage, item and day or week —
 * whatever happens: random presses, stocktakes, garage changes, unit and garage deletions, and
 * ledger rows restamped or removed by hand. And the day split the reports read them by.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import type { TenantIdentity } from '../auth/identity';
import { createGarage } from '../garages/service';
import { consume } from '../stock/commands/consume';
import { deleteGarage, deleteUnit } from '../stock/commands/locations';
import { receiveAtUnit } from '../stock/commands/receive';
import { removeUnitStock } from '../stock/commands/remove-stock-row';
import { createUnit, reverseMovements, updateUnit } from '../units/service';
import { splitSpan } from './usage-sql';

describe('splitSpan', () => {
  const d = (iso: string) => new Date(iso);
  const june = (...days: number[]) => days.map((n) => `2026-06-${String(n).padStart(2, '0')}`);
  it('reads whole weeks and days from the totals and only the cut days from the ledger', () => {
    // 2026-06-01 is a Monday; the span and an inner window start at 14:05.
    const split = splitSpan(d('2026-06-01T14:05:00Z'), d('2026-07-01T14:05:00Z'), [d('2026-06-24T14:05:00Z')], { weeks: true });
    expect(split).toEqual({
      weeks: june(8, 15),
      days: june(2, 3, 4, 5, 6, 7, 22, 23, 25, 26, 27, 28, 29, 30),
      pieces: [
        { start: d('2026-06-01T14:05:00Z'), end: d('2026-06-02T00:00:00Z') },
        { start: d('2026-06-24T00:00:00Z'), end: d('2026-06-25T00:00:00Z') },
        { start: d('2026-07-01T00:00:00Z'), end: d('2026-07-01T14:05:00Z') },
      ],
    });
    const daysOnly = splitSpan(d('2026-06-01T14:05:00Z'), d('2026-07-01T14:05:00Z'), [d('2026-06-24T14:05:00Z')]);
    expect(daysOnly.weeks).toEqual([]);
    expect(daysOnly.days).toEqual([...june(2, 3, 4, 5, 6, 7), ...june(8, 9, 10, 11, 12, 13, 14), ...june(15, 16, 17, 18, 19, 20, 21), ...split.days.slice(6)]);
  });
  it('cuts nothing at midnight, and ignores cuts outside the span', () => {
    expect(splitSpan(d('2026-06-01T00:00:00Z'), d('2026-06-09T00:00:00Z'), [d('2026-06-05T00:00:00Z'), d('2026-07-05T10:00:00Z')], { weeks: true })).toEqual({
      weeks: june(1),
      days: june(8),
      pieces: [],
    });
  });
  it('reads a span inside one day from the ledger alone', () => {
    expect(splitSpan(d('2026-06-01T08:00:00Z'), d('2026-06-01T09:00:00Z'), [], { weeks: true })).toEqual({
      weeks: [],
      days: [],
      pieces: [{ start: d('2026-06-01T08:00:00Z'), end: d('2026-06-01T09:00:00Z') }],
    });
  });
});

describe.each(backends)('daily usage totals on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let who: TenantIdentity;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'rollup@example.com', [
      { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 6.5 },
      { name: 'Pods', category: 'Kitchen', minimum_threshold: 5, count_cost: 0.45 },
    ]);
    who = s.owner;
  });
  afterAll(() => t.close());

  // Usage written out here rather than through ledger_is_usage, so the check does not trust the function it checks.
  const isUsage = sql`source_type = 'unit' and quantity_change < 0 and type in ('consumption', 'count') and reversed_at is null`;
  /** Rows where the totals and the ledger disagree (zero totals count as absent). */
  const mismatches = async () => {
    const differ = (name: string, want: ReturnType<typeof sql>, have: ReturnType<typeof sql>) =>
      queryRows(
        t.database.db,
        sql`with want as (${want}), have as (${have})
            select ${`${name}: missing`} as what, * from (select * from want except select * from have) a
            union all select ${`${name}: extra`}, * from (select * from have except select * from want) b`,
      );
    return [
      ...(await differ(
        'unit',
        sql`select tenant_id, (created_at at time zone 'UTC')::date as day, unit_id, sum(-quantity_change)::bigint as used,
                   sum(-quantity_change * unit_cost * 100)::bigint as cents
            from inventory_logs where ${isUsage} group by 1, 2, 3`,
        sql`select tenant_id, day, unit_id, used, cost_cents from unit_usage_daily where used <> 0 or cost_cents <> 0`,
      )),
      ...(await differ(
        'garage week',
        sql`select tenant_id, date_trunc('week', day::timestamp)::date as week, garage_id, item_id, sum(used)::int as used
            from garage_usage_daily group by 1, 2, 3, 4 having sum(used) <> 0`,
        sql`select tenant_id, week, garage_id, item_id, used from garage_usage_weekly where used <> 0`,
      )),
      ...(await differ(
        'garage',
        sql`select l.tenant_id, (l.created_at at time zone 'UTC')::date as day, u.garage_id, l.item_id, sum(-l.quantity_change)::bigint as used
            from inventory_logs l join units u on u.tenant_id = l.tenant_id and u.id = l.unit_id
            where ${isUsage} and u.garage_id is not null group by 1, 2, 3, 4`,
        sql`select tenant_id, day, garage_id, item_id, used from garage_usage_daily where used <> 0`,
      )),
    ];
  };

  it('equal the ledger after random presses, garage changes, deletions and ledger rows moved or removed by hand', async () => {
    const items = Object.values(s.itemIds);
    const garages = [s.garageId, (await createGarage(t.database.db, who, { name: 'Annex', address: '2 Side', inventory: [] }, new Date())).id];
    const units = [s.unitId];
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), unit: fc.nat(9), item: fc.nat(1), qty: fc.integer({ min: 1, max: 9 }) }) },
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('consume' as const), unit: fc.nat(9), item: fc.nat(1) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const) }) },
      fc.record({ kind: fc.constant('remove' as const), unit: fc.nat(9), item: fc.nat(1) }),
      fc.record({ kind: fc.constant('assign' as const), unit: fc.nat(9), garage: fc.nat(2) }),
      fc.record({ kind: fc.constant('newUnit' as const), garage: fc.nat(2) }),
      fc.record({ kind: fc.constant('deleteUnit' as const), unit: fc.nat(9) }),
      fc.record({ kind: fc.constant('newGarage' as const) }),
      fc.record({ kind: fc.constant('deleteGarage' as const), garage: fc.nat(9) }),
      fc.record({ kind: fc.constant('restamp' as const), days: fc.integer({ min: -40, max: 0 }), hours: fc.nat(23) }),
      fc.record({ kind: fc.constant('dropRow' as const) }),
    );
    let created = 0;
    let lastUse: { unit: string; movementIds: string[] } | undefined;
    const applied: Record<string, number> = {};
    const pick = <T,>(list: T[], i: number): T | undefined => list[i % Math.max(list.length, 1)];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 20 }), async (ops) => {
        for (const o of ops) {
          try {
            if (o.kind === 'add') await receiveAtUnit(t.database.db, who, pick(units, o.unit)!, { item_id: items[o.item]!, quantity: o.qty });
            else if (o.kind === 'consume') {
              const unit = pick(units, o.unit)!;
              lastUse = { unit, movementIds: (await consume(t.database.db, who, unit, items[o.item]!)).movement_ids };
            } else if (o.kind === 'undo') {
              // Undoing the last use marks its row undone (an UPDATE of the ledger): it leaves the totals.
              const use = lastUse;
              lastUse = undefined;
              if (!use) continue;
              await reverseMovements(t.database.db, who, use.unit, use.movementIds);
            }
            else if (o.kind === 'remove') await removeUnitStock(t.database.db, who, pick(units, o.unit)!, items[o.item]!);
            else if (o.kind === 'assign') {
              const unit = pick(units, o.unit)!;
              await updateUnit(t.database.db, who, unit, { name: 'Unit', address: 'Somewhere', garage_id: garages[o.garage] ?? null });
            } else if (o.kind === 'newUnit') {
              const garage = pick(garages, o.garage)!;
              units.push((await createUnit(t.database.db, who, { name: `Unit ${++created}`, address: 'x', garage_id: garage, inventory: [] }, new Date())).id);
            } else if (o.kind === 'deleteUnit') {
              const unit = pick(units, o.unit)!;
              await deleteUnit(t.database.db, who, unit);
              units.splice(units.indexOf(unit), 1);
            } else if (o.kind === 'newGarage') {
              garages.push((await createGarage(t.database.db, who, { name: `Garage ${++created}`, address: 'y', inventory: [] }, new Date())).id);
            } else if (o.kind === 'deleteGarage') {
              const garage = pick(garages, o.garage)!;
              await deleteGarage(t.database.db, who, garage);
              garages.splice(garages.indexOf(garage), 1);
            } else if (o.kind === 'restamp') {
              // Not something the application does; the totals must follow any write to the ledger.
              await t.database.db.execute(sql`update inventory_logs set created_at = created_at + make_interval(days => ${o.days}, hours => ${o.hours})
                where tenant_id = ${s.tenantId} and id in (select id from inventory_logs where tenant_id = ${s.tenantId} order by created_at desc limit 3)`);
            } else {
              await t.database.db.execute(sql`delete from inventory_logs where tenant_id = ${s.tenantId}
                and id = (select id from inventory_logs where tenant_id = ${s.tenantId} and ${isUsage} order by id limit 1)`);
            }
          } catch (err) {
            // Refusals (unknown stock row, nothing to consume, last unit or garage, plan limit) are expected outcomes.
            const code = (err as { code?: string }).code;
            if (!['NOT_FOUND', 'CONFLICT', 'LAST_RECORD', 'LIMIT_REACHED'].includes(code ?? '')) throw err;
            continue;
          }
          applied[o.kind] = (applied[o.kind] ?? 0) + 1;
        }
        expect(await mismatches()).toEqual([]);
      }),
      { numRuns: 15, seed: 20261122 },
    );
    // Every kind of change happened, and usage is left to compare.
    expect(Object.keys(applied).sort()).toEqual(['add', 'assign', 'consume', 'deleteGarage', 'deleteUnit', 'dropRow', 'newGarage', 'newUnit', 'remove', 'restamp', 'undo']);
    const [usage] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from garage_usage_daily where tenant_id = ${s.tenantId} and used > 0`);
    expect(usage!.n).toBeGreaterThan(0);
  }, 300_000);

  it.runIf(backend === 'postgres')('count a minus press that overlaps a garage change for the new garage', async () => {
    const { owner, ...b } = await stockTenant(t, 'overlap@example.com');
    const towel = b.itemIds['Bath Towel']!;
    const home = (await createUnit(t.database.db, owner, { name: 'Overlap', address: 'o', garage_id: b.garageId, inventory: [{ item_id: towel, quantity: 10 }] }, new Date())).id;
    await consume(t.database.db, owner, home, towel); // history for the move to carry
    const spare = (await createGarage(t.database.db, owner, { name: 'Spare', address: 's', inventory: [] }, new Date())).id;
    let press: Promise<unknown> | undefined;
    // The garage change is written but not committed when the press starts: the press must wait
    // for it and count for the new garage, not the old one it would have read.
    await withTenant(t.database.db, b.tenantId, async (tx) => {
      await tx.execute(sql`update units set garage_id = ${spare} where tenant_id = ${b.tenantId} and id = ${home}`);
      press = consume(t.database.db, owner, home, towel);
      const settled = press.then(() => true, () => true);
      for (let i = 0; i < 100; i++) {
        const [waiting] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`);
        if (waiting!.n > 0 || (await Promise.race([settled, new Promise((r) => setTimeout(() => r(false), 20))]))) break;
      }
    });
    await press;
    expect(await mismatches()).toEqual([]);
    const [moved] = await queryRows<{ used: number }>(t.database.db, sql`select coalesce(sum(used), 0)::int as used from garage_usage_daily
      where tenant_id = ${b.tenantId} and garage_id = ${spare}`);
    expect(moved!.used).toBe(2);
  }, 60_000);

  it.runIf(backend === 'postgres')('are taken in one order when a property is deleted while another leaves the same garage', async () => {
    const { owner, ...b } = await stockTenant(t, 'order@example.com');
    const pool = t.database.pool!;
    const [first, second] = [b.itemIds['Bath Towel']!, b.itemIds['Coffee Pods']!].sort();
    const inventory = [{ item_id: first!, quantity: 10 }, { item_id: second!, quantity: 10 }];
    const doomed = (await createUnit(t.database.db, owner, { name: 'Doomed', address: 'd', garage_id: b.garageId, inventory }, new Date())).id;
    const moving = (await createUnit(t.database.db, owner, { name: 'Moving', address: 'm', garage_id: b.garageId, inventory }, new Date())).id;
    const spare = (await createGarage(t.database.db, owner, { name: 'Spare', address: 's', inventory: [] }, new Date())).id;
    for (const unit of [doomed, moving]) for (const item of [first!, second!]) await consume(t.database.db, owner, unit, item);
    // Both properties used the first item last week and the second today.
    await pool.query(`update inventory_logs set created_at = created_at - interval '8 days' where tenant_id = $1 and item_id = $2 and type = 'consumption'`, [b.tenantId, first]);
    /** Deadlocks PostgreSQL has counted in this database, with every pooled session's counts flushed. */
    const deadlocks = async () => {
      const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
      try {
        for (const c of clients) await c.query('select pg_stat_force_next_flush()');
        await clients[0]!.query('select pg_stat_clear_snapshot()');
        return Number((await clients[0]!.query('select deadlocks from pg_stat_database where datname = current_database()')).rows[0].deadlocks);
      } finally {
        for (const c of clients) c.release();
      }
    };
    const waiting = async (n: number, settled: Promise<unknown>) => {
      for (let i = 0; i < 200; i++) {
        const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`);
        if (row!.n >= n || (await Promise.race([settled.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]))) return;
      }
    };
    const before = await deadlocks();
    // A session holds today's total of the second item at the garage, so that the delete stops on
    // it first and the move queues behind: once it lets go, both go on in the order the delete
    // queued in. Taken out of key order, the delete would then wait for last week's total that
    // the move holds while the move waits for today's.
    const holder = await pool.connect();
    let both: Promise<unknown[]>;
    try {
      await holder.query('begin');
      await holder.query(
        `select 1 from garage_usage_daily where tenant_id = $1 and garage_id = $2 and item_id = $3 and day = (now() at time zone 'UTC')::date for update`,
        [b.tenantId, b.garageId, second],
      );
      const deleted = deleteUnit(t.database.db, owner, doomed);
      await waiting(1, deleted.catch(() => undefined));
      const moved = updateUnit(t.database.db, owner, moving, { name: 'Moving', address: 'm', garage_id: spare });
      both = Promise.all([deleted, moved]);
      await waiting(2, both.catch(() => undefined));
    } finally {
      await holder.query('commit');
      holder.release();
    }
    await both;
    expect(await deadlocks()).toBe(before);
    expect(await mismatches()).toEqual([]);
  }, 60_000);

  it.runIf(backend === 'postgres')('stay equal, without deadlocks, under concurrent minus presses and garage changes', async () => {
    const { owner, ...b } = await stockTenant(t, 'busy@example.com');
    const [towel, pods] = [b.itemIds['Bath Towel']!, b.itemIds['Coffee Pods']!];
    const homes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const inventory = [{ item_id: pods, quantity: 30 }, { item_id: towel, quantity: 30 }];
      homes.push((await createUnit(t.database.db, owner, { name: `Busy ${i}`, address: 'z', garage_id: b.garageId, inventory }, new Date())).id);
    }
    const spare = (await createGarage(t.database.db, owner, { name: 'Spare', address: 's', inventory: [] }, new Date())).id;
    const presses = homes.flatMap((unit) => Array.from({ length: 20 }, (_, i) => consume(t.database.db, owner, unit, i % 2 ? pods : towel)));
    const moves = [updateUnit(t.database.db, owner, homes[0]!, { name: 'Busy 0', address: 'z', garage_id: spare })];
    const results = await Promise.allSettled([...presses, ...moves]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(await mismatches()).toEqual([]);
  }, 60_000);
});
