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
 * that order; callers lock garages and units first. Transfers from a garage to units are in
 * transfer.ts.
 */
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Tx } from '../../db/client';
import type { MovementType } from '../../db/schema/stock';
import { ConcurrentChange } from '../../db/tenant-tx';
import type { StockLocks } from './locks';
import { tableOf, type Location } from './tables';


export interface MovementMeta {
  tenantId: string;
  userId: string | null;
  note?: string | null;
  transferId?: string | null;
}


/**
 * Creates the stock row of `itemId` at `location` with quantity 0 if it does not exist yet.
 * An existing row is looked for first because an INSERT fires the row's BEFORE INSERT trigger,
 * which takes a key-share lock on the item, even when ON CONFLICT then inserts nothing: taken
 * before the stock row's own lock, that would invert the lock order (the item comes last).
 * @returns true when this call created it (a concurrent creator's row makes it wait, then false).
 */
export async function ensureStockRow(tx: Tx, tenantId: string, location: Location, itemId: string): Promise<boolean> {
  const { table, column } = tableOf(location.kind);
  const created = await queryRows(
    tx,
    sql`
    insert into ${table} as s (tenant_id, ${column}, item_id, quantity)
    select i.tenant_id, ${location.id}::uuid, i.id, 0
    from items i
    where i.tenant_id = ${tenantId} and i.id = ${itemId}
      and not exists (select 1 from ${table} where tenant_id = ${tenantId} and ${column} = ${location.id} and item_id = ${itemId})
    on conflict (tenant_id, ${column}, item_id) do nothing
    returning s.id`,
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
  const { table, column } = tableOf(location.kind);
  const [row] = await queryRows<{ quantity: number }>(
    tx,
    sql`
    with upd as (
      update ${table} set quantity = quantity + ${delta}::int, updated_at = now()
      where tenant_id = ${meta.tenantId} and ${column} = ${location.id} and item_id = ${itemId} and quantity + ${delta}::int >= 0
      returning tenant_id, item_id, quantity
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, ${column}, type, transfer_id, unit_cost, user_id, note)
      select i.tenant_id, upd.item_id, ${delta}::int, ${location.kind}::text, ${location.id}::uuid, ${type}::text,
             ${meta.transferId ?? null}::uuid, i.count_cost, ${meta.userId}::uuid, ${meta.note ?? null}::text
      from upd join items i on i.tenant_id = ${meta.tenantId} and i.id = upd.item_id
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
  const { table, column } = tableOf(location.kind);
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
      select i.tenant_id, upd.item_id, upd.quantity - upd.previous, ${location.kind}::text, ${location.id}::uuid, ${type}::text,
             i.count_cost, ${meta.userId}::uuid, ${meta.note ?? null}::text
      from upd join items i on i.tenant_id = ${meta.tenantId} and i.id = upd.item_id
      where upd.quantity <> upd.previous
    )
    select previous, quantity from upd`,
  );
  // Created above, gone now: a concurrent transaction deleted it in between.
  if (!row) throw new ConcurrentChange(`stock row of item ${itemId} at ${location.kind} ${location.id} vanished`);
  return { previous: Number(row.previous), quantity: Number(row.quantity) };
}

/** A line of a stocktake: the stock of `itemId` at location `locationId` becomes `quantity`, counted by `userId`. */
export interface CountedLine {
  locationId: string;
  itemId: string;
  quantity: number;
  userId: string | null;
}

/**
 * A stocktake of many rows at once (count mode, docs/decisions/026-stocktake.md), at one or more
 * locations of one kind (a company's counts at units written together): the stock of each line's
 * item at its location becomes its `quantity`, by one statement, and each row that changed gets
 * one `count` movement of the difference, computed in SQL, with the line's user and `meta.note`.
 * A line of 0 for an item the location does not hold writes nothing; any other line opens the
 * missing row first. The caller has locked the locations and their existing stock rows of these
 * items (key order) with `locks`; a row a concurrent transaction opened meanwhile is taken by
 * `rowsOpenedSince` before the rows are read (the statement that writes takes no lock of its own:
 * on Citus, a row lock joined to the lines' array would be planned apart from the update, and
 * fail); each (location, item) comes once.
 * @returns the rows that changed, with the quantity before and after, by location and item.
 * @throws ConcurrentChange when such a row is held by another transaction (the transaction runs again).
 */
export async function countStock(
  tx: Tx,
  locks: StockLocks,
  kind: Location['kind'],
  lines: readonly CountedLine[],
  meta: Pick<MovementMeta, 'tenantId' | 'note'>,
): Promise<{ locationId: string; itemId: string; previous: number; quantity: number }[]> {
  if (lines.length === 0) return [];
  const { table, column } = tableOf(kind);
  const sorted = [...lines].sort((a, b) => (a.locationId === b.locationId ? a.itemId.localeCompare(b.itemId) : a.locationId.localeCompare(b.locationId)));
  const wanted = sql`unnest(${pgArray(sorted.map((l) => l.locationId))}::uuid[], ${pgArray(sorted.map((l) => l.itemId))}::uuid[],
    ${pgArray(sorted.map((l) => l.quantity))}::int[], ${pgArray(sorted.map((l) => l.userId))}::uuid[]) as w(location_id, item_id, quantity, user_id)`;
  // Missing rows first, by their own statement, as ensureStockRow does (its comment says why).
  await tx.execute(sql`
    insert into ${table} (tenant_id, ${column}, item_id, quantity)
    select i.tenant_id, w.location_id, i.id, 0
    from ${wanted} join items i on i.tenant_id = ${meta.tenantId} and i.id = w.item_id
    where w.quantity > 0
      and not exists (select 1 from ${table} s where s.tenant_id = ${meta.tenantId} and s.${column} = w.location_id and s.item_id = w.item_id)
    order by w.location_id, w.item_id
    on conflict (tenant_id, ${column}, item_id) do nothing`);
  // A row another transaction opened after the caller's locks (the insert above then did nothing)
  // would be read from this statement's snapshot by the next one, and its difference misrecorded:
  // it is taken here, or the transaction runs again.
  await locks.rowsOpenedSince(kind, sorted);
  const rows = await queryRows<{ location_id: string; item_id: string; previous: number; quantity: number }>(
    tx,
    sql`
    with cur as (
      select s.id, s.${column} as location_id, s.item_id, s.quantity, w.quantity as counted, w.user_id
      from ${table} s join ${wanted} on w.location_id = s.${column} and w.item_id = s.item_id
      where s.tenant_id = ${meta.tenantId} and s.quantity <> w.quantity
    ), upd as (
      update ${table} s set quantity = cur.counted, updated_at = now()
      from cur where s.tenant_id = ${meta.tenantId} and s.id = cur.id
      returning s.tenant_id, cur.location_id, s.item_id, cur.quantity as previous, s.quantity, cur.user_id
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, ${column}, type, unit_cost, user_id, note)
      select i.tenant_id, upd.item_id, upd.quantity - upd.previous, ${kind}::text, upd.location_id, 'count',
             i.count_cost, upd.user_id, ${meta.note ?? null}::text
      from upd join items i on i.tenant_id = ${meta.tenantId} and i.id = upd.item_id
    )
    select location_id, item_id, previous, quantity from upd order by location_id, item_id`,
  );
  return rows.map((r) => ({ locationId: r.location_id, itemId: r.item_id, previous: Number(r.previous), quantity: Number(r.quantity) }));
}

/** Sets the stock row to 0 through the ledger (`count`), then deletes the row. */
export async function removeStockRow(tx: Tx, location: Location, itemId: string, meta: MovementMeta): Promise<void> {
  await setStock(tx, location, itemId, 0, meta);
  const { table, column } = tableOf(location.kind);
  await tx.execute(
    sql`delete from ${table} where tenant_id = ${meta.tenantId} and ${column} = ${location.id} and item_id = ${itemId}`,
  );
}

/**
 * Zeroes every stock row of `location` through the ledger (before the location is deleted). Every
 * row is locked, empty ones too, so a concurrent write to one of them waits and then finds it
 * gone instead of changing a row that is about to be deleted without its ledger rows. The ledger
 * rows are written by a CTE of a SELECT, not by the statement itself: Citus sends an INSERT whose
 * source holds data-modifying CTEs to the shard without naming the CTEs' shards.
 */
export async function zeroLocation(tx: Tx, location: Location, meta: MovementMeta): Promise<void> {
  const { table, column } = tableOf(location.kind);
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
    ), logged as (
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, ${column}, type, unit_cost, user_id, note)
      select i.tenant_id, upd.item_id, -upd.previous, ${location.kind}::text, ${location.id}::uuid, 'count', i.count_cost,
             ${meta.userId}::uuid, ${meta.note ?? null}::text
      from upd join items i on i.tenant_id = ${meta.tenantId} and i.id = upd.item_id
    )
    select count(*) from upd`);
}

/**
 * The ids of the ledger rows this transaction has written at `location` for `itemIds`: what a
 * stock change hands back so that it can be undone (docs/decisions/024-undo-by-reverse-movements.md).
 * The primitives above do not return the rows they log (`transfer_to_units` and
 * `consume_at_units` do, since migration 0026), so the rows are found by the transaction that
 * wrote them (`xmin`; tenant transactions open no savepoints, whose rows would carry a
 * sub-transaction's id). Nothing written: no ids.
 */
export async function movementsWrittenAt(tx: Tx, tenantId: string, location: Location, itemIds: string[]): Promise<string[]> {
  if (itemIds.length === 0) return [];
  const column = location.kind === 'unit' ? sql.raw('unit_id') : sql.raw('garage_id');
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from inventory_logs
        where tenant_id = ${tenantId} and ${column} = ${location.id} and item_id = any(${pgArray(itemIds)}::uuid[])
          and source_type = ${location.kind} and xmin = pg_current_xact_id_if_assigned()::xid
        order by item_id, id`,
  );
  return rows.map((r) => r.id);
}
