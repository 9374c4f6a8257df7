/**
 * The Dashboard's counts of unit stock rows low and critical are kept by the statements that
 * change stock (migration 0015, docs/decisions/021-dashboard-alert-counts.md): whatever happens —
 * presses, Add Manually, stocktakes at creation, row removals, threshold changes, unit and item
 * deletions with their cascades, rows written by hand, a tenant deleted — they equal a fresh
 * count of the rows, on PGlite and PostgreSQL; under concurrent presses on PostgreSQL too, where
 * no writer waits for another on them. And migration 0015 counts the rows of existing tenants.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, wrapPglite } from '../../db/client';
import { runMigrations } from '../../db/migrate';
import { migrationsFolder } from '../../paths';
import { AppError } from '../../lib/errors';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { createGarage } from '../garages/service';
import { createItem, deleteItem, updateItem } from '../items/service';
import { inAlertSql, stockStatusSql } from '../stock/rules';
import { consume } from '../stock/commands/consume';
import { deleteUnit } from '../stock/commands/locations';
import { receiveAtUnit } from '../stock/commands/receive';
import { removeUnitStock } from '../stock/commands/remove-stock-row';
import { restockToMinimum } from '../stock/commands/restock-to-minimum';
import { transferToUnit } from '../stock/commands/transfer-to-unit';
import { createUnit } from '../units/service';

/** Per tenant, the kept counts next to a fresh count of its rows; only tenants where they differ. */
const mismatchesSql = sql`
  with fresh as (
    select tenant_id,
           count(*) filter (where ${stockStatusSql(sql`quantity`, sql`item_threshold`)} = 'low')::int as low,
           count(*) filter (where ${stockStatusSql(sql`quantity`, sql`item_threshold`)} = 'critical')::int as critical
    from unit_inventory where ${inAlertSql(sql`quantity`, sql`item_threshold`)} group by tenant_id
  ), kept as (
    select tenant_id, sum(low)::int as low, sum(critical)::int as critical from unit_alert_counts group by tenant_id
  )
  select coalesce(f.tenant_id, k.tenant_id) as tenant_id, f.low as fresh_low, f.critical as fresh_critical,
         k.low as kept_low, k.critical as kept_critical
  from fresh f full join kept k on k.tenant_id = f.tenant_id
  where coalesce(f.low, 0) <> coalesce(k.low, 0) or coalesce(f.critical, 0) <> coalesce(k.critical, 0)`;

describe.each(backends)('dashboard alert counts on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let other: StockTenant;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'counts@example.com', [
      { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 6.5 },
      { name: 'Pods', category: 'Kitchen', minimum_threshold: 5, count_cost: 0.45 },
      { name: 'Soap', category: 'Bath', minimum_threshold: 0, count_cost: 1 },
    ]);
    // A second company whose counts must not move with the first one's writes.
    other = await stockTenant(t, 'other-counts@example.com');
  });
  afterAll(() => t.close());

  const mismatches = () => queryRows(t.database.db, mismatchesSql);
  const kept = async (tenantId: string) =>
    (
      await queryRows<{ low: number; critical: number }>(
        t.database.db,
        sql`select coalesce(sum(low), 0)::int as low, coalesce(sum(critical), 0)::int as critical from unit_alert_counts where tenant_id = ${tenantId}`,
      )
    )[0]!;

  it('equal a fresh count after random presses, removals, threshold changes, unit and item deletions and rows written by hand', async () => {
    const who = s.owner;
    const now = () => new Date();
    const items = Object.entries(s.itemIds).map(([name, id]) => ({ name, id }));
    await createGarage(t.database.db, who, { name: 'Annex', address: '2 Side', inventory: [] }, now());
    // The unit's garage holds plenty, so presses move stock.
    const stocked = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, {
      inventory: items.map((i) => ({ item_id: i.id, quantity: 5_000 })),
    });
    expect(stocked.statusCode).toBe(200);
    const units = [s.unitId];
    const otherBefore = await kept(other.tenantId);
    let created = 0;
    const pick = <T,>(list: T[], i: number): T => list[i % list.length]!;
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), unit: fc.nat(9), item: fc.nat(9), qty: fc.integer({ min: 1, max: 4 }) }) },
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('consume' as const), unit: fc.nat(9), item: fc.nat(9) }) },
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('press' as const), unit: fc.nat(9), item: fc.nat(9) }) },
      fc.record({ kind: fc.constant('transfer' as const), unit: fc.nat(9), item: fc.nat(9), qty: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('toMinimum' as const), unit: fc.nat(9) }),
      fc.record({ kind: fc.constant('remove' as const), unit: fc.nat(9), item: fc.nat(9) }),
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('threshold' as const), item: fc.nat(9), threshold: fc.nat(6) }) },
      fc.record({ kind: fc.constant('newUnit' as const), qty: fc.array(fc.nat(4), { minLength: 3, maxLength: 3 }) }),
      fc.record({ kind: fc.constant('deleteUnit' as const), unit: fc.nat(9) }),
      fc.record({ kind: fc.constant('newItem' as const), threshold: fc.nat(4) }),
      fc.record({ kind: fc.constant('deleteItem' as const), item: fc.nat(9) }),
      fc.record({ kind: fc.constant('byHand' as const), unit: fc.nat(9), item: fc.nat(9), qty: fc.nat(8), how: fc.constantFrom('set', 'delete', 'insert') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 25, maxLength: 25 }), async (ops) => {
        for (const o of ops) {
          try {
            if (o.kind === 'add') await receiveAtUnit(t.database.db, who, pick(units, o.unit), { item_id: pick(items, o.item).id, quantity: o.qty });
            else if (o.kind === 'consume') await consume(t.database.db, who, pick(units, o.unit), pick(items, o.item).id);
            else if (o.kind === 'press') await transferToUnit(t.database.db, who, pick(units, o.unit), pick(items, o.item).id, 1);
            else if (o.kind === 'transfer') await transferToUnit(t.database.db, who, pick(units, o.unit), pick(items, o.item).id, o.qty);
            else if (o.kind === 'toMinimum') await restockToMinimum(t.database.db, who, pick(units, o.unit));
            else if (o.kind === 'remove') await removeUnitStock(t.database.db, who, pick(units, o.unit), pick(items, o.item).id);
            else if (o.kind === 'threshold') {
              const item = pick(items, o.item);
              await updateItem(t.database.db, who, item.id, { name: item.name, category: 'Linen', minimum_threshold: o.threshold, count_cost: 1 });
            } else if (o.kind === 'newUnit') {
              const inventory = items.slice(0, 3).map((i, k) => ({ item_id: i.id, quantity: o.qty[k]! }));
              units.push((await createUnit(t.database.db, who, { name: `Unit ${++created}`, address: 'x', garage_id: s.garageId, inventory }, now())).id);
            } else if (o.kind === 'deleteUnit') {
              const unit = pick(units, o.unit);
              await deleteUnit(t.database.db, who, unit);
              units.splice(units.indexOf(unit), 1);
            } else if (o.kind === 'newItem') {
              const name = `Item ${++created}`;
              const item = await createItem(t.database.db, who, { name, category: 'Misc', minimum_threshold: o.threshold, count_cost: 1 }, now());
              items.push({ name, id: item.id });
            } else if (o.kind === 'deleteItem') {
              // Only items made here: the next tests still use the tenant's first ones.
              if (items.length <= 3) continue;
              const item = pick(items.slice(3), o.item);
              // Only an item without stock can go: zero it at every unit first, as an admin would.
              for (const unit of units) await removeUnitStock(t.database.db, who, unit, item.id).catch(() => {});
              await deleteItem(t.database.db, who, item.id);
              items.splice(items.indexOf(item), 1);
            } else {
              // Not something the application does: the counts follow any write to the table.
              const unit = pick(units, o.unit);
              const item = pick(items, o.item).id;
              if (o.how === 'set') {
                await t.database.db.execute(sql`update unit_inventory set quantity = ${o.qty} where tenant_id = ${s.tenantId} and unit_id = ${unit} and item_id = ${item}`);
              } else if (o.how === 'delete') {
                await t.database.db.execute(sql`delete from unit_inventory where tenant_id = ${s.tenantId} and unit_id = ${unit}`);
              } else {
                await t.database.db.execute(sql`
                  insert into unit_inventory (tenant_id, unit_id, item_id, quantity)
                  select ${s.tenantId}::uuid, ${unit}::uuid, i.id, ${o.qty}::int from items i
                  where i.tenant_id = ${s.tenantId}
                  on conflict (tenant_id, unit_id, item_id) do update set quantity = excluded.quantity`);
              }
            }
          } catch (err) {
            // Refusals (no garage, nothing in stock, last unit, plan limits, …) change nothing.
            if (!(err instanceof AppError)) throw err;
          }
        }
        expect(await mismatches()).toEqual([]);
      }),
      { numRuns: 8 },
    );
    expect(await kept(other.tenantId)).toEqual(otherBefore);
    // Every status change of one writer at a time lands in the same row.
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from unit_alert_counts where tenant_id = ${s.tenantId}`);
    expect(rows[0]!.n).toBe(1);
  });

  it('go with their tenant', async () => {
    const gone = await stockTenant(t, 'gone@example.com');
    expect(await kept(gone.tenantId)).toEqual({ low: 0, critical: 2 });
    await t.database.db.execute(sql`delete from tenants where id = ${gone.tenantId}`);
    expect(await kept(gone.tenantId)).toEqual({ low: 0, critical: 0 });
    expect(await mismatches()).toEqual([]);
  });

  it.runIf(backend === 'postgres')('stay exact under concurrent presses and consumptions', async () => {
    const c = await stockTenant(t, 'concurrent-counts@example.com', [
      { name: 'Towel', category: 'Linen', minimum_threshold: 1 },
      { name: 'Pods', category: 'Kitchen', minimum_threshold: 1 },
    ]);
    const items = Object.values(c.itemIds);
    const stocked = await api(t, c.cookie, 'PUT', `/api/garages/${c.garageId}/inventory`, {
      inventory: items.map((id) => ({ item_id: id, quantity: 5_000 })),
    });
    expect(stocked.statusCode).toBe(200);
    // Rows at 1 with thresholds of 1: presses and consumptions keep moving them across statuses.
    const unitIds = [c.unitId];
    for (let k = 0; k < 3; k++) {
      const unit = await createUnit(t.database.db, c.owner, { name: `Unit ${k}`, address: 'x', garage_id: c.garageId, inventory: items.map((id) => ({ item_id: id, quantity: 1 })) }, new Date());
      unitIds.push(unit.id);
    }
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, worker) => {
        for (let k = 0; k < 25; k++) {
          const unit = unitIds[(worker + k) % unitIds.length]!;
          const item = items[(worker + k * 3) % items.length]!;
          const action = (worker + k) % 3 === 2 ? 'consume' : 'transfer';
          statuses.push((await api(t, c.cookie, 'POST', `/api/units/${unit}/inventory/${item}/${action}`, { quantity: 1 })).statusCode);
        }
      }),
    );
    expect(statuses.filter((code) => code >= 500)).toEqual([]);
    expect(statuses.filter((code) => code === 200).length).toBeGreaterThan(200);
    expect(await mismatches()).toEqual([]);
  });

  it.runIf(backend === 'postgres')('never make a writer wait for another', async () => {
    // Two open transactions of the tenant each change a status; the second must not wait for the
    // first to end (it would hit the lock timeout), as it would on a single counter row.
    const unit = (await createUnit(t.database.db, s.owner, { name: 'Side by side', address: 'x', garage_id: s.garageId, inventory: [] }, new Date())).id;
    const [first, second] = Object.values(s.itemIds) as [string, string];
    for (const item of [first, second]) expect((await api(t, s.cookie, 'POST', `/api/units/${unit}/inventory`, { item_id: item, quantity: 9 })).statusCode).toBe(200);
    const before = await kept(s.tenantId);
    const clients = [await t.database.pool!.connect(), await t.database.pool!.connect()];
    try {
      for (const [k, client] of clients.entries()) {
        await client.query('begin');
        await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'inventory_app', true), set_config('lock_timeout', '2s', true)`, [s.tenantId]);
        // 9 -> 0: sufficient to critical.
        const updated = await client.query('update unit_inventory set quantity = 0 where tenant_id = $1 and unit_id = $2 and item_id = $3', [s.tenantId, unit, k === 0 ? first : second]);
        expect(updated.rowCount).toBe(1);
      }
      for (const client of clients) await client.query('commit');
    } finally {
      for (const client of clients) client.release();
    }
    expect(await kept(s.tenantId)).toEqual({ low: before.low, critical: before.critical + 2 });
    expect(await mismatches()).toEqual([]);
  });
});

describe('migration 0015', () => {
  it('counts the rows of the tenants that exist before it', async () => {
    // The migrations up to 0014 only: a copy of the folder whose journal stops there.
    const dir = mkdtempSync(join(tmpdir(), 'inv-0014-'));
    try {
      cpSync(migrationsFolder, dir, { recursive: true });
      const journalPath = join(dir, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
      const at = journal.entries.findIndex((e) => e.tag.startsWith('0015_'));
      expect(at).toBeGreaterThan(0);
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
      const client = await PGlite.create();
      const database = wrapPglite(client);
      try {
        await migrate(database.db as never, { migrationsFolder: dir });
        const tenants = await queryRows<{ id: string }>(
          database.db,
          sql`insert into tenants (name, slug) values ('A', 'a'), ('B', 'b'), ('C', 'c') returning id`,
        );
        const [a, b] = tenants.map((r) => r.id) as [string, string];
        await database.db.execute(sql`
          insert into units (tenant_id, name, address) select t, 'Unit ' || n, 'x' from unnest(array[${a}, ${b}]::uuid[]) t, generate_series(1, 3) n`);
        await database.db.execute(sql`
          insert into items (tenant_id, name, category, minimum_threshold) select t, 'Item ' || n, 'c', n from unnest(array[${a}, ${b}]::uuid[]) t, generate_series(0, 4) n`);
        await database.db.execute(sql`
          insert into unit_inventory (tenant_id, unit_id, item_id, quantity)
          select u.tenant_id, u.id, i.id, (abs(hashtext(u.name || i.name)) % 6)
          from units u join items i on i.tenant_id = u.tenant_id`);
        await runMigrations(database);
        expect(await queryRows(database.db, mismatchesSql)).toEqual([]);
        const counted = await queryRows<{ tenant_id: string }>(database.db, sql`select tenant_id from unit_alert_counts`);
        expect(counted.map((r) => r.tenant_id).sort()).toEqual([a, b].sort());
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
