/**
 * The ledger primitives (docs/ARCHITECTURE.md "Where the ledger is enforced"): the only code
 * that changes a stock quantity. Each runs inside the caller's tenant transaction and writes the
 * stock row and its `inventory_logs` row in one SQL statement; quantities move by atomic SQL
 * (`quantity = quantity + n` guarded by `quantity + n >= 0`), so concurrent requests never lose
 * an update or go below zero. Each ledger row records the item's count_cost at that moment, the
 * user and an optional note.
 *
 * Lock order (docs/decisions/009-ledger-lock-order.md): every stock write takes its row locks in
 * one order — the garage row, then units (key ascending, each unit before its stock rows), then
 * unit stock rows, then garage stock rows (key ascending), items last — so concurrent writes wait
 * for each other instead of deadlocking. The primitives here lock the stock rows they change in
 * that order; callers lock garages and units first.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import type { MovementType } from '../../db/schema/stock';
import { ConcurrentChange } from '../../db/tenant-tx';
import { AppError } from '../../lib/errors';

/** A stock location: a unit (property) or a garage (storage). */
export type Location = { kind: 'unit'; id: string } | { kind: 'garage'; id: string };

export interface MovementMeta {
  tenantId: string;
  userId: string | null;
  note?: string | null;
  transferId?: string | null;
}

function tableOf(location: Location) {
  return location.kind === 'unit'
    ? { table: sql.raw('unit_inventory'), column: sql.raw('unit_id') }
    : { table: sql.raw('garage_inventory'), column: sql.raw('garage_id') };
}

/**
 * Creates the stock row of `itemId` at `location` with quantity 0 if it does not exist yet.
 * An existing row is looked for first because an INSERT fires the row's BEFORE INSERT trigger,
 * which takes a key-share lock on the item, even when ON CONFLICT then inserts nothing: taken
 * before the stock row's own lock, that would invert the lock order (the item comes last).
 * @returns true when this call created it (a concurrent creator's row makes it wait, then false).
 */
export async function ensureStockRow(tx: Tx, tenantId: string, location: Location, itemId: string): Promise<boolean> {
  const { table, column } = tableOf(location);
  const created = await queryRows(
    tx,
    sql`
    insert into ${table} (tenant_id, ${column}, item_id, quantity)
    select ${tenantId}, ${location.id}, ${itemId}, 0
    where not exists (select 1 from ${table} where tenant_id = ${tenantId} and ${column} = ${location.id} and item_id = ${itemId})
    on conflict (tenant_id, ${column}, item_id) do nothing
    returning id`,
  );
  return created.length > 0;
}

/**
 * Adds `delta` (may be negative) to the stock of `itemId` at `location` and records it.
 * @returns the new quantity, or null when there is no such stock row or it would go below 0
 *   (nothing is written then).
 */
export async function changeStock(
  tx: Tx,
  location: Location,
  itemId: string,
  delta: number,
  type: MovementType,
  meta: MovementMeta,
): Promise<number | null> {
  const { table, column } = tableOf(location);
  const [row] = await queryRows<{ quantity: number }>(
    tx,
    sql`
    with upd as (
      update ${table} set quantity = quantity + ${delta}::int, updated_at = now()
      where tenant_id = ${meta.tenantId} and ${column} = ${location.id} and item_id = ${itemId} and quantity + ${delta}::int >= 0
      returning tenant_id, item_id, quantity
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, ${column}, type, transfer_id, unit_cost, user_id, note)
      select upd.tenant_id, upd.item_id, ${delta}::int, ${location.kind}::text, ${location.id}::uuid, ${type}::text,
             ${meta.transferId ?? null}::uuid, i.count_cost, ${meta.userId}::uuid, ${meta.note ?? null}::text
      from upd join items i on i.tenant_id = upd.tenant_id and i.id = upd.item_id
      where ${delta}::int <> 0
    )
    select quantity from upd`,
  );
  return row ? Number(row.quantity) : null;
}

/**
 * A stocktake: sets the stock of `itemId` at `location` to `quantity`, creating the row if
 * needed, and records the difference (computed in SQL under a row lock) as a `count` movement,
 * or as `type` when given (e.g. `initial` for a new row).
 * @returns the previous and the new quantity.
 * @throws ConcurrentChange when a concurrent transaction deleted the row (the transaction is retried).
 */
export async function setStock(
  tx: Tx,
  location: Location,
  itemId: string,
  quantity: number,
  meta: MovementMeta,
  type: MovementType = 'count',
): Promise<{ previous: number; quantity: number }> {
  await ensureStockRow(tx, meta.tenantId, location, itemId);
  const { table, column } = tableOf(location);
  const [row] = await queryRows<{ previous: number; quantity: number }>(
    tx,
    sql`
    with cur as (
      select id, quantity from ${table}
      where tenant_id = ${meta.tenantId} and ${column} = ${location.id} and item_id = ${itemId}
      for update
    ), upd as (
      update ${table} s set quantity = ${quantity}::int, updated_at = now()
      from cur where s.tenant_id = ${meta.tenantId} and s.id = cur.id
      returning s.tenant_id, s.item_id, cur.quantity as previous, s.quantity
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, ${column}, type, unit_cost, user_id, note)
      select upd.tenant_id, upd.item_id, upd.quantity - upd.previous, ${location.kind}::text, ${location.id}::uuid, ${type}::text,
             i.count_cost, ${meta.userId}::uuid, ${meta.note ?? null}::text
      from upd join items i on i.tenant_id = upd.tenant_id and i.id = upd.item_id
      where upd.quantity <> upd.previous
    )
    select previous, quantity from upd`,
  );
  // Created above, gone now: a concurrent transaction deleted it in between.
  if (!row) throw new ConcurrentChange(`stock row of item ${itemId} at ${location.kind} ${location.id} vanished`);
  return { previous: Number(row.previous), quantity: Number(row.quantity) };
}

/** Sets the stock row to 0 through the ledger (`count`), then deletes the row. */
export async function removeStockRow(tx: Tx, location: Location, itemId: string, meta: MovementMeta): Promise<void> {
  await setStock(tx, location, itemId, 0, meta);
  const { table, column } = tableOf(location);
  await tx.execute(
    sql`delete from ${table} where tenant_id = ${meta.tenantId} and ${column} = ${location.id} and item_id = ${itemId}`,
  );
}

/**
 * Zeroes every stock row of `location` through the ledger (before the location is deleted). Every
 * row is locked, empty ones too, so a concurrent write to one of them waits and then finds it
 * gone instead of changing a row that is about to be deleted without its ledger rows.
 */
export async function zeroLocation(tx: Tx, location: Location, meta: MovementMeta): Promise<void> {
  const { table, column } = tableOf(location);
  await tx.execute(sql`
    with cur as (
      select id, item_id, quantity from ${table}
      where tenant_id = ${meta.tenantId} and ${column} = ${location.id}
      order by item_id
      for update
    ), upd as (
      update ${table} s set quantity = 0, updated_at = now()
      from cur where s.tenant_id = ${meta.tenantId} and s.id = cur.id and cur.quantity <> 0
      returning s.item_id, cur.quantity as previous
    )
    insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, ${column}, type, unit_cost, user_id, note)
    select ${meta.tenantId}::uuid, upd.item_id, -upd.previous, ${location.kind}::text, ${location.id}::uuid, 'count', i.count_cost,
           ${meta.userId}::uuid, ${meta.note ?? null}::text
    from upd join items i on i.tenant_id = ${meta.tenantId} and i.id = upd.item_id`);
}

/**
 * A transfer of n from a garage to a unit (docs/product.md "Stock movements and statuses": `restock`, also `scan`; the plus button's
 * presses of 1 go through restockPresses): two ledger rows
 * sharing a transfer id, -n at the garage and +n at the unit. The unit's stock row, when it
 * exists, is locked first (the lock order); then one statement decrements the garage row,
 * guarded against going below zero, and increments the unit's row, created if missing.
 * @throws AppError CONFLICT 'Not enough stock available in garage'.
 */
export async function transferToUnit(
  tx: Tx,
  args: { garageId: string; unitId: string; itemId: string; quantity: number; type: 'restock' | 'scan' },
  meta: MovementMeta,
): Promise<{ garageQuantity: number; unitQuantity: number }> {
  const n = args.quantity;
  await lockUnitStockRows(tx, meta.tenantId, [args]);
  const [row] = await queryRows<{ garage_quantity: number; unit_quantity: number }>(
    tx,
    sql`
    with g as (
      update garage_inventory set quantity = quantity - ${n}::int, updated_at = now()
      where tenant_id = ${meta.tenantId} and garage_id = ${args.garageId} and item_id = ${args.itemId} and quantity >= ${n}::int
      returning tenant_id, item_id, quantity
    ), u as (
      insert into unit_inventory (tenant_id, unit_id, item_id, quantity)
      select g.tenant_id, ${args.unitId}::uuid, g.item_id, ${n}::int from g
      on conflict (tenant_id, unit_id, item_id) do update set quantity = unit_inventory.quantity + excluded.quantity, updated_at = now()
      returning quantity
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id, note)
      select g.tenant_id, g.item_id, side.change, side.source_type, side.unit_id, side.garage_id, ${args.type}::text,
             ${randomUUID()}::uuid, i.count_cost, ${meta.userId}::uuid, ${meta.note ?? null}::text
      from g
      join items i on i.tenant_id = g.tenant_id and i.id = g.item_id
      cross join (values (-${n}::int, 'garage', null::uuid, ${args.garageId}::uuid),
                         (${n}::int, 'unit', ${args.unitId}::uuid, null::uuid)) as side(change, source_type, unit_id, garage_id)
    )
    select g.quantity as garage_quantity, u.quantity as unit_quantity from g cross join u`,
  );
  if (!row) throw new AppError('CONFLICT', 'Not enough stock available in garage');
  return { garageQuantity: Number(row.garage_quantity), unitQuantity: Number(row.unit_quantity) };
}

/**
 * Locks the unit stock rows of `pairs` (unit id, item id) in key order (unit, then item), the
 * step of the lock order that comes before any garage stock row. A row locked here cannot be
 * deleted or changed by another transaction until this one ends.
 */
export async function lockUnitStockRows(tx: Tx, tenantId: string, pairs: { unitId: string; itemId: string }[]): Promise<void> {
  const list = (values: string[]) => `{${values.join(',')}}`;
  await tx.execute(
    sql`
    select 1 from unit_inventory s
    where s.tenant_id = ${tenantId}
      and (s.unit_id, s.item_id) in (select * from unnest(${list(pairs.map((p) => p.unitId))}::uuid[], ${list(pairs.map((p) => p.itemId))}::uuid[]))
    order by s.unit_id, s.item_id
    for update`,
  );
}

/**
 * Locks every stock row of `itemId`, unit rows then garage rows, each in key order: what a change
 * of the item's minimum threshold (carried to its stock rows by the foreign key's ON UPDATE
 * CASCADE) or the item's deletion (ON DELETE CASCADE) would otherwise lock in no particular order
 * while holding the item row.
 */
export async function lockItemStockRows(tx: Tx, tenantId: string, itemId: string): Promise<void> {
  await tx.execute(sql`select 1 from unit_inventory where tenant_id = ${tenantId} and item_id = ${itemId} order by unit_id for update`);
  await tx.execute(sql`select 1 from garage_inventory where tenant_id = ${tenantId} and item_id = ${itemId} order by garage_id for update`);
}

/** One press of the plus button: a `restock` transfer of 1 of `itemId` to `unitId`, by `userId`. */
export interface RestockPress {
  unitId: string;
  itemId: string;
  userId: string;
}

/**
 * What became of a press: `moved` with the quantities right after it (the unit's, its garage's)
 * and the item's minimum threshold; or why nothing moved: the unit has no stock row of the item
 * (`no_stock_row`, also for an unknown unit), the unit has no garage (`no_garage`), the garage
 * has none left for it (`garage_short`).
 */
export type RestockOutcome =
  | { kind: 'moved'; unitQuantity: number; garageQuantity: number; threshold: number }
  | { kind: 'no_stock_row' }
  | { kind: 'no_garage' }
  | { kind: 'garage_short' };

/**
 * Transfers of 1 from each unit's garage to the unit (docs/product.md "Stock movements and statuses": `restock`), for presses of
 * one tenant taken in order, written by one statement: per transfer two ledger rows sharing a
 * transfer id, -1 at the garage and +1 at the unit. Each garage row gives what it holds to the
 * earliest presses, never going below zero; the later presses are `garage_short`. A unit's
 * row then grows by its accepted presses. Each outcome's quantities are those right after its
 * own press, as if the presses had run one by one in order.
 *
 * The units, their stock rows and then the garage rows are locked first, in key order, by one
 * call before the writing statement (the lock order): a unit row deleted by a concurrent transaction is then either still
 * ours to change, or already gone and its presses answered `no_stock_row` — never a garage
 * decrement and ledger rows for a unit row that the statement could not update.
 * @returns one outcome per press, in the presses' order.
 */
export async function restockPresses(tx: Tx, tenantId: string, presses: RestockPress[]): Promise<RestockOutcome[]> {
  const list = (values: string[]) => `{${values.join(',')}}`;
  // The units FOR SHARE (their garage cannot change), their stock rows, then the garage rows they
  // take from, in key order (migration 0012): the writing statement below starts after every row
  // it changes is ours, so it reads their latest quantities and nothing changes them under it.
  await tx.execute(
    sql`select lock_transfer_rows(${tenantId}::uuid, ${list(presses.map((p) => p.unitId))}::uuid[], ${list(presses.map((p) => p.itemId))}::uuid[])`,
  );
  const rows = await queryRows<{
    ord: number; has_row: boolean; garage_id: string | null; threshold: number | null; garage_after: number | null; unit_after: number | null;
  }>(
    tx,
    sql`
    with press as (
      select p.ord, p.unit_id, p.item_id, p.user_id
      from unnest(${list(presses.map((p) => p.unitId))}::uuid[], ${list(presses.map((p) => p.itemId))}::uuid[],
                  ${list(presses.map((p) => p.userId))}::uuid[]) with ordinality as p(unit_id, item_id, user_id, ord)
    ), target as (
      select p.ord, p.unit_id, p.item_id, p.user_id, u.garage_id, s.item_threshold as threshold
      from press p
      join unit_inventory s on s.tenant_id = ${tenantId} and s.unit_id = p.unit_id and s.item_id = p.item_id
      join units u on u.tenant_id = ${tenantId} and u.id = p.unit_id
    ), demand as (
      select garage_id, item_id, count(*)::int as n from target where garage_id is not null group by garage_id, item_id
    ), locked as (
      select g.garage_id, g.item_id, g.quantity
      from garage_inventory g join demand d on d.garage_id = g.garage_id and d.item_id = g.item_id
      where g.tenant_id = ${tenantId}
    ), taken as (
      update garage_inventory g set quantity = g.quantity - least(l.quantity, d.n), updated_at = now()
      from locked l join demand d on d.garage_id = l.garage_id and d.item_id = l.item_id
      where g.tenant_id = ${tenantId} and g.garage_id = l.garage_id and g.item_id = l.item_id and l.quantity > 0
      returning g.garage_id, g.item_id, l.quantity as before, least(l.quantity, d.n) as n
    ), accepted as (
      -- rank: the press's place among its garage item's presses; unit_rank: among its unit row's accepted ones.
      select r.ord, r.unit_id, r.item_id, r.user_id, r.garage_id, k.before - r.rank as garage_after,
             row_number() over (partition by r.unit_id, r.item_id order by r.ord) as unit_rank,
             gen_random_uuid() as transfer_id
      from (select t.*, row_number() over (partition by t.garage_id, t.item_id order by t.ord) as rank from target t where t.garage_id is not null) r
      join taken k on k.garage_id = r.garage_id and k.item_id = r.item_id
      where r.rank <= k.n
    ), added as (
      update unit_inventory s set quantity = s.quantity + a.n, updated_at = now()
      from (select unit_id, item_id, count(*)::int as n from accepted group by unit_id, item_id) a
      where s.tenant_id = ${tenantId} and s.unit_id = a.unit_id and s.item_id = a.item_id
      returning s.unit_id, s.item_id, s.quantity - a.n as before
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id)
      select ${tenantId}::uuid, a.item_id, side.change, side.source_type, side.unit_id, side.garage_id, 'restock', a.transfer_id, i.count_cost, a.user_id
      from accepted a
      join items i on i.tenant_id = ${tenantId} and i.id = a.item_id
      cross join lateral (values (-1, 'garage', null::uuid, a.garage_id), (1, 'unit', a.unit_id, null::uuid)) as side(change, source_type, unit_id, garage_id)
      order by a.ord
    )
    select p.ord::int, t.ord is not null as has_row, t.garage_id, t.threshold, a.garage_after::int, (ad.before + a.unit_rank)::int as unit_after
    from press p
    left join target t on t.ord = p.ord
    left join accepted a on a.ord = p.ord
    left join added ad on ad.unit_id = a.unit_id and ad.item_id = a.item_id
    order by p.ord`,
  );
  return rows.map((r): RestockOutcome => {
    if (!r.has_row) return { kind: 'no_stock_row' };
    if (!r.garage_id) return { kind: 'no_garage' };
    if (r.unit_after === null || r.garage_after === null) return { kind: 'garage_short' };
    return { kind: 'moved', unitQuantity: Number(r.unit_after), garageQuantity: Number(r.garage_after), threshold: Number(r.threshold) };
  });
}
