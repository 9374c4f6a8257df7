/**
 * Units — properties (docs/product.md "Screens: Units", "Screens: Add Unit", "Screens: Unit detail", "Stock movements and statuses").
 * The minus button is a `consumption` of 1 floored at 0; the plus button is a real `restock`
 * transfer of 1 from the unit's garage (the garage loses what the unit gains); restock by quantity
 * and "Restock to minimum" move more at once, by the same transfer (stock/transfer.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type {
  AddUnitStockBody,
  CreateUnitBody,
  RestockToMinimumResult,
  StockChangeResult,
  StockMoveResult,
  StockRowRemoval,
  Unit,
  UpdateUnitBody,
} from '../../../common/contracts/stock';
import { stockStatus } from '../../../common/contracts/stock';
import type { CountBody, CountResult } from '../../../common/contracts/count';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { garages, units } from '../../db/schema/stock';
import { ConcurrentChange, withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/session';
import { assertItemsExist } from '../items/service';
import { assertAccess, assertWithinLimit } from '../billing/plans';
import { applyCount } from '../stock/count';
import { assertNotLastRecord } from '../stock/last-record';
import { stockStatusSql } from '../stock/rules';
import { changeStock, ensureStockRow, movementsWrittenAt, removeStockRow, setStock, zeroLocation } from '../stock/ledger';
import { restockOne } from '../stock/restock-queue';
import { transferToUnits, type TransferOutcome } from '../stock/transfer';

type Row = Omit<Unit, 'inventory'> & { inventory: Unit['inventory'] | null };

/** Reads units of the tenant (all, or the one of `id`) with garage and stock, ordered by name. */
async function readUnits(tx: Tx, tenantId: string, id?: string): Promise<Unit[]> {
  const rows = await queryRows<Row>(
    tx,
    sql`
    select u.id, u.name, u.address, u.garage_id, u.external_id,
      case when g.id is null then null else json_build_object('id', g.id, 'name', g.name, 'address', g.address) end as garage,
      (select json_agg(json_build_object(
                'id', s.id, 'item_id', s.item_id, 'item_name', i.name, 'quantity', s.quantity,
                'minimum_threshold', i.minimum_threshold,
                'status', ${stockStatusSql(sql`s.quantity`, sql`i.minimum_threshold`)})
              order by i.name, s.item_id)
       from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
       where s.tenant_id = u.tenant_id and s.unit_id = u.id) as inventory
    from units u
    left join garages g on g.tenant_id = u.tenant_id and g.id = u.garage_id
    where u.tenant_id = ${tenantId} ${id ? sql`and u.id = ${id}` : sql``}
    order by u.name, u.id`,
  );
  return rows.map((r) => ({ ...r, inventory: r.inventory ?? [] }));
}

/**
 * Checks that the garage exists and holds it (FOR KEY SHARE) until the transaction ends, so it
 * cannot be deleted before a unit assigned to it is written; garages come first in the lock
 * order (docs/decisions/009-ledger-lock-order.md). @throws 404
 */
async function lockGarageForAssignment(tx: Tx, tenantId: string, garageId: string): Promise<void> {
  const [found] = await tx
    .select({ id: garages.id })
    .from(garages)
    .where(and(eq(garages.tenantId, tenantId), eq(garages.id, garageId)))
    .for('key share');
  if (!found) throw notFound('Garage');
}

/**
 * Locks the unit (`update` to change or delete it, `share` to change its stock). A unit comes
 * before its stock rows in the lock order.
 * @returns the unit's garage as of the lock (null when none). @throws 404
 */
async function lockUnit(tx: Tx, tenantId: string, id: string, mode: 'update' | 'share'): Promise<{ garageId: string | null }> {
  const [found] = await tx
    .select({ garageId: units.garageId })
    .from(units)
    .where(and(eq(units.tenantId, tenantId), eq(units.id, id)))
    .for(mode);
  if (!found) throw notFound('Unit');
  return found;
}

/** The tenant's units with garage and stock rows (status derived from each item's threshold). */
export async function listUnits(db: Db, who: TenantIdentity): Promise<Unit[]> {
  return withTenant(db, who.tenantId, (tx) => readUnits(tx, who.tenantId));
}

/** One unit. @throws 404 */
export async function getUnit(db: Db, who: TenantIdentity, id: string): Promise<Unit> {
  const [found] = await withTenant(db, who.tenantId, (tx) => readUnits(tx, who.tenantId, id));
  if (!found) throw notFound('Unit');
  return found;
}

/**
 * Add Unit (admins) within the plan's unit limit: the unit and its stock rows, quantities as
 * `initial` movements; lines at 0 skipped. @throws 404; LIMIT_REACHED
 */
export async function createUnit(db: Db, who: TenantIdentity, body: CreateUnitBody, now: Date): Promise<Unit> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertWithinLimit(tx, who.tenantId, 'units', 1, now);
    await lockGarageForAssignment(tx, who.tenantId, body.garage_id);
    const lines = body.inventory.filter((l) => l.quantity > 0);
    await assertItemsExist(tx, who.tenantId, lines.map((l) => l.item_id));
    const [row] = await tx
      .insert(units)
      .values({ tenantId: who.tenantId, name: body.name, address: body.address, garageId: body.garage_id })
      .returning({ id: units.id });
    const location = { kind: 'unit', id: row!.id } as const;
    for (const line of lines) {
      await setStock(tx, location, line.item_id, line.quantity, { tenantId: who.tenantId, userId: who.userId }, 'initial');
    }
    return (await readUnits(tx, who.tenantId, row!.id))[0]!;
  });
}

/** Edit Unit / Assign Garage (admins). @throws 404 for an unknown unit or garage */
export async function updateUnit(db: Db, who: TenantIdentity, id: string, body: UpdateUnitBody): Promise<Unit> {
  return withTenant(db, who.tenantId, async (tx) => {
    if (body.garage_id) await lockGarageForAssignment(tx, who.tenantId, body.garage_id);
    await lockUnit(tx, who.tenantId, id, 'update');
    await tx
      .update(units)
      .set({ name: body.name, address: body.address, garageId: body.garage_id })
      .where(and(eq(units.tenantId, who.tenantId), eq(units.id, id)));
    return (await readUnits(tx, who.tenantId, id))[0]!;
  });
}

/** Deletes a unit (admins), counting its stock down to 0 in the ledger first. @throws 404; LAST_RECORD */
export async function deleteUnit(db: Db, who: TenantIdentity, id: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    await lockUnit(tx, who.tenantId, id, 'update');
    await assertNotLastRecord(tx, who.tenantId, 'units');
    await zeroLocation(tx, { kind: 'unit', id }, { tenantId: who.tenantId, userId: who.userId, note: 'Unit deleted' });
    await tx.delete(units).where(and(eq(units.tenantId, who.tenantId), eq(units.id, id)));
  });
}

async function thresholdOf(tx: Tx, tenantId: string, itemId: string): Promise<number> {
  const [row] = await queryRows<{ t: number }>(
    tx,
    sql`select minimum_threshold as t from items where tenant_id = ${tenantId} and id = ${itemId}`,
  );
  if (!row) throw notFound('Item');
  return Number(row.t);
}

/**
 * "Add Manually" received from outside (a purchase): adds `quantity` of an item to the unit —
 * `initial` for a new stock row, `external_addition` for an existing one. Stock from the unit's
 * garage is added by `transferUnitStock` instead. @throws 404
 */
export async function addUnitStock(db: Db, who: TenantIdentity, unitId: string, body: AddUnitStockBody): Promise<StockMoveResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await lockUnit(tx, who.tenantId, unitId, 'share');
    const threshold = await thresholdOf(tx, who.tenantId, body.item_id);
    const location = { kind: 'unit', id: unitId } as const;
    const meta = { tenantId: who.tenantId, userId: who.userId };
    const created = await ensureStockRow(tx, who.tenantId, location, body.item_id);
    const quantity = await changeStock(tx, location, body.item_id, body.quantity, created ? 'initial' : 'external_addition', meta);
    if (quantity === null) throw new ConcurrentChange(`stock row of item ${body.item_id} at unit ${unitId} vanished`);
    return {
      unit_quantity: quantity,
      garage_quantity: null,
      status: stockStatus(quantity, threshold),
      movement_ids: await movementsWrittenAt(tx, who.tenantId, location, [body.item_id]),
    };
  });
}

/**
 * Locks the unit (FOR SHARE: its garage cannot change and it cannot be deleted meanwhile), then
 * its stock row of an item (FOR UPDATE), by two statements in the lock order, and reads the row's
 * threshold and quantity as locked.
 * @throws 404 when the unit has no such row
 */
async function lockUnitRow(tx: Tx, tenantId: string, unitId: string, itemId: string) {
  const [row] = await queryRows<{ threshold: number }>(
    tx,
    sql`select s.item_threshold as threshold
        from units u
        join unit_inventory s on s.tenant_id = u.tenant_id and s.unit_id = u.id
        where u.tenant_id = ${tenantId} and u.id = ${unitId} and s.item_id = ${itemId}
        for share of u`,
  );
  if (!row) throw notFound('Stock row');
  // Gone now only when its removal held the unit while the statement above waited for it (that
  // statement then still saw the row): the row is not found, as it would be a moment later.
  const [locked] = await queryRows<{ quantity: number }>(
    tx,
    sql`select quantity from unit_inventory where tenant_id = ${tenantId} and unit_id = ${unitId} and item_id = ${itemId} for update`,
  );
  if (!locked) throw notFound('Stock row');
  return { threshold: Number(row.threshold), quantity: Number(locked.quantity) };
}

/**
 * The minus button: consumes `quantity` (pieces, 1 unless quick taps were sent together) at the
 * unit, or what is left when it holds less; at 0 nothing changes (docs/product.md "Stock movements
 * and statuses"). The expired-trial gate is checked inside the same transaction (`now`): plus and
 * minus are pressed in bursts.
 * @returns the quantities after, and the ledger row to undo it (none when nothing was used).
 * @throws 404; SUBSCRIPTION_REQUIRED
 */
export async function consumeUnitStock(
  db: Db,
  who: TenantIdentity,
  unitId: string,
  itemId: string,
  now: Date,
  quantity = 1,
): Promise<StockMoveResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertAccess(tx, who.tenantId, now);
    // The unit first: the usage this writes makes the ledger's trigger lock the unit too, after
    // the stock row, which would invert the lock order if the unit were not held already.
    const row = await lockUnitRow(tx, who.tenantId, unitId, itemId);
    const location = { kind: 'unit', id: unitId } as const;
    const used = Math.min(quantity, row.quantity);
    const after = used === 0 ? 0 : await changeStock(tx, location, itemId, -used, 'consumption', { tenantId: who.tenantId, userId: who.userId });
    if (after === null) throw new ConcurrentChange(`stock row of item ${itemId} at unit ${unitId} changed under its lock`);
    return {
      unit_quantity: after,
      garage_quantity: null,
      status: stockStatus(after, row.threshold),
      movement_ids: await movementsWrittenAt(tx, who.tenantId, location, [itemId]),
    };
  });
}

const noGarage = () => new AppError('CONFLICT', 'No garage assigned to this unit');
const garageShort = () => new AppError('CONFLICT', 'Not enough stock available in garage');

/**
 * The answer to a restock of one stock row: the quantities after a moved line, else the refusal.
 * @throws 404 for no stock row; CONFLICT 'No garage assigned to this unit' | 'Not enough stock available in garage'
 */
function restockAnswer(outcome: TransferOutcome): StockChangeResult {
  if (outcome.kind === 'no_stock_row') throw notFound('Stock row');
  if (outcome.kind === 'no_garage') throw noGarage();
  if (outcome.kind === 'garage_short') throw garageShort();
  return {
    unit_quantity: outcome.unitQuantity,
    garage_quantity: outcome.garageQuantity,
    status: stockStatus(outcome.unitQuantity, outcome.threshold),
  };
}

/**
 * The plus button: a `restock` transfer of 1 from the unit's garage, behind the expired-trial
 * gate (`now`). Presses pressed together are written together (stock/restock-queue.ts), each
 * with the result it would have had alone in its arrival order.
 * @throws 404; SUBSCRIPTION_REQUIRED; CONFLICT 'No garage assigned to this unit' | 'Not enough stock available in garage'
 */
export async function restockUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string, now: Date): Promise<StockChangeResult> {
  return restockAnswer(await restockOne(db, { tenantId: who.tenantId, userId: who.userId, unitId, itemId, now }));
}

/**
 * Opens the unit's stock row of an item it does not hold yet, for a transfer of `quantity` from
 * its garage, refusing first what the transfer would refuse. The garage's row is locked before the
 * new unit row is inserted (whose trigger locks the item, the last step of the lock order of
 * docs/decisions/009-ledger-lock-order.md): no other transaction can hold a row not inserted yet,
 * and one opening the same row locks the same garage row first, so they take turns.
 * @throws 404 for an unknown item; CONFLICT as restock by quantity
 */
async function openRowForTransfer(tx: Tx, tenantId: string, unitId: string, garageId: string | null, itemId: string, quantity: number) {
  if (garageId === null) throw noGarage();
  await thresholdOf(tx, tenantId, itemId);
  const [held] = await queryRows<{ quantity: number }>(
    tx,
    sql`select quantity from garage_inventory where tenant_id = ${tenantId} and garage_id = ${garageId} and item_id = ${itemId} for update`,
  );
  if (!held || Number(held.quantity) < quantity) throw garageShort();
  await ensureStockRow(tx, tenantId, { kind: 'unit', id: unitId }, itemId);
}

/**
 * Restock by quantity, and "Add Manually" from the garage: one `restock` transfer of `quantity`
 * (pieces, >= 1) from the unit's garage, all of it or nothing (docs/product.md "Stock movements
 * and statuses"). A unit without a stock row of the item gets one, so the transfer also adds a new
 * item to the unit. Answers like the plus button, with the ledger row to undo it.
 * @throws 404 for an unknown unit or item; CONFLICT 'No garage assigned to this unit' | 'Not enough stock available in garage'
 */
export async function transferUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string, quantity: number): Promise<StockMoveResult> {
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
    const unit = await lockUnit(tx, tenantId, unitId, 'share');
    const [row] = await queryRows(tx, sql`select 1 from unit_inventory where tenant_id = ${tenantId} and unit_id = ${unitId} and item_id = ${itemId}`);
    if (!row) await openRowForTransfer(tx, tenantId, unitId, unit.garageId, itemId, quantity);
    const [outcome] = await transferToUnits(tx, tenantId, [{ unitId, itemId, quantity, userId: who.userId }], { type: 'restock' });
    // Refused inside the transaction, so a row opened above goes too.
    const answer = restockAnswer(outcome!);
    return { ...answer, movement_ids: await movementsWrittenAt(tx, tenantId, { kind: 'unit', id: unitId }, [itemId]) };
  });
}

/**
 * "Restock to minimum" (docs/product.md "Stock movements and statuses"): every stock row of the
 * unit below its item's minimum threshold — or only the row of `itemId` — gets (threshold −
 * quantity) from the unit's garage, as much of it as the garage holds, in one transaction and
 * one `restock` transfer. The rows are locked and read first, in the lock order of
 * docs/decisions/009-ledger-lock-order.md (the unit, its stock rows, the garage rows), so the
 * quantities asked for are computed from the latest values and nothing can change them before
 * the transfer moves them; a line the transfer still refuses is reported as not covered.
 * @returns what moved and what the garage could not cover, by item name. Nothing to fill
 *   answers two empty lists.
 * @throws 404 for an unknown unit, or a unit without a stock row of `itemId`;
 *   CONFLICT 'No garage assigned to this unit' when a row is to be filled.
 */
export async function restockToMinimum(db: Db, who: TenantIdentity, unitId: string, itemId?: string): Promise<RestockToMinimumResult> {
  return withTenant(db, who.tenantId, (tx) => fillUnitToMinimum(tx, who, unitId, itemId));
}

/**
 * The rule of "Restock to minimum" inside the caller's tenant transaction (also how setup fills
 * its new properties, docs/decisions/027-first-day-setup.md); answers and throws as
 * restockToMinimum.
 */
export async function fillUnitToMinimum(tx: Tx, who: TenantIdentity, unitId: string, itemId?: string): Promise<RestockToMinimumResult> {
  const tenantId = who.tenantId;
  const unit = await lockUnit(tx, tenantId, unitId, 'share');
  // One row asked for is locked whatever its quantity, to tell a missing row (404) from a full one.
  const rowsToFill = itemId ? sql`s.item_id = ${itemId}` : sql`s.quantity < s.item_threshold`;
  const rows = await queryRows<{ item_id: string; item_name: string; wanted: number }>(
    tx,
    sql`select s.item_id, i.name as item_name, greatest(s.item_threshold - s.quantity, 0) as wanted
        from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
        where s.tenant_id = ${tenantId} and s.unit_id = ${unitId} and ${rowsToFill}
        order by s.item_id
        for update of s`,
  );
  if (itemId && rows.length === 0) throw notFound('Stock row');
  const low = rows.filter((r) => Number(r.wanted) > 0);
  if (low.length === 0) return { moved: [], short: [], movement_ids: [] };
  if (unit.garageId === null) throw noGarage();
  const held = await queryRows<{ item_id: string; quantity: number }>(
    tx,
    sql`select g.item_id, g.quantity
        from garage_inventory g
        join unit_inventory s on s.tenant_id = g.tenant_id and s.item_id = g.item_id
        where g.tenant_id = ${tenantId} and g.garage_id = ${unit.garageId} and s.unit_id = ${unitId} and ${rowsToFill}
        order by g.item_id
        for update of g`,
  );
  const holds = new Map(held.map((g) => [g.item_id, Number(g.quantity)]));
  const asked = low.map((r) => ({ ...r, wanted: Number(r.wanted), quantity: Math.min(Number(r.wanted), holds.get(r.item_id) ?? 0) }));
  const moving = asked.filter((a) => a.quantity > 0);
  const outcomes = moving.length === 0
    ? []
    : await transferToUnits(tx, tenantId, moving.map((a) => ({ unitId, itemId: a.item_id, quantity: a.quantity, userId: who.userId })), { type: 'restock' });
  const movedOf = new Map(moving.map((a, k) => [a.item_id, outcomes[k]!.kind === 'moved' ? a.quantity : 0]));
  const movedItems = moving.filter((a) => (movedOf.get(a.item_id) ?? 0) > 0).map((a) => a.item_id);
  const result: RestockToMinimumResult = {
    moved: [],
    short: [],
    movement_ids: await movementsWrittenAt(tx, tenantId, { kind: 'unit', id: unitId }, movedItems),
  };
  for (const a of asked.sort((x, y) => x.item_name.localeCompare(y.item_name))) {
    const moved = movedOf.get(a.item_id) ?? 0;
    if (moved > 0) result.moved.push({ item_id: a.item_id, item_name: a.item_name, quantity: moved });
    if (moved < a.wanted) result.short.push({ item_id: a.item_id, item_name: a.item_name, missing: a.wanted - moved });
  }
  return result;
}

/**
 * Count mode at a unit (docs/product.md "Screens: Count"): the counted lines become its stock in
 * one transaction, one `count` movement per changed row (stock/count.ts); a count that finds less
 * is usage, as every count at a unit. The unit is held FOR SHARE first: the usage trigger locks it
 * too, after the stock rows, which would otherwise invert the lock order.
 * @throws 404 for an unknown unit or item; CONFLICT listing the lines whose stock moved since they were counted
 */
export async function countUnit(db: Db, who: TenantIdentity, unitId: string, body: CountBody): Promise<CountResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await lockUnit(tx, who.tenantId, unitId, 'share');
    return applyCount(tx, who.tenantId, who.userId, { kind: 'unit', id: unitId }, body.lines);
  });
}

/** The note of the `count` a removed stock row is counted to 0 with; undoing it opens the row again. */
const REMOVED_NOTE = 'Removed from unit';

/**
 * Removes an item's stock row from the unit, counting it down to 0 in the ledger first.
 * @returns the ledger row to undo it (none when the row held nothing). @throws 404
 */
export async function removeUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string): Promise<StockRowRemoval> {
  return withTenant(db, who.tenantId, async (tx) => {
    // FOR UPDATE: deleting a stock row waits for every change of the unit's stock in progress
    // (they hold the unit FOR SHARE), so none of them finds its row gone half-way.
    await lockUnit(tx, who.tenantId, unitId, 'update');
    await lockUnitRow(tx, who.tenantId, unitId, itemId);
    const location = { kind: 'unit', id: unitId } as const;
    await removeStockRow(tx, location, itemId, { tenantId: who.tenantId, userId: who.userId, note: REMOVED_NOTE });
    return { movement_ids: await movementsWrittenAt(tx, who.tenantId, location, [itemId]) };
  });
}

/** The note of a reverse movement, naming the ledger row it undoes (docs/decisions/024-undo-by-reverse-movements.md). */
const reversalNote = (movementId: string) => `Undo of ${movementId}`;

/** A ledger row at the unit, as an undo reads it; `garage_id` is the other side of a transfer. */
interface UnitMovement {
  id: string;
  item_id: string;
  item_name: string | null;
  quantity_change: number;
  type: string;
  note: string | null;
  garage_id: string | null;
}

/** What undoing a ledger row at a unit means, or null when it cannot be undone. */
function reversalOf(m: UnitMovement): 'transfer' | 'consumption' | 'addition' | 'removal' | null {
  const change = Number(m.quantity_change);
  if (m.item_name === null) return null;
  if (m.type === 'restock' && m.garage_id !== null && change > 0) return 'transfer';
  if (m.type === 'consumption' && change < 0) return 'consumption';
  if ((m.type === 'initial' || m.type === 'external_addition') && change > 0) return 'addition';
  if (m.type === 'count' && m.note === REMOVED_NOTE && change < 0) return 'removal';
  return null;
}

const cannotUndo = (message: string) => new AppError('CONFLICT', message);

/**
 * Undo (docs/product.md "Stock movements and statuses", docs/decisions/024-undo-by-reverse-movements.md):
 * writes the reverse of each of these ledger rows of the unit — the ids a stock change answered —
 * all of them or none; history is never deleted. A restock goes back to the garage it came from
 * (a `restock` transfer the other way), a use comes back (`consumption`), stock received from
 * outside goes out again (its own type), a removed stock row is opened again with what it held
 * (`count`). Each reverse row notes the row it undoes, and the row undone is marked
 * (`reversed_at`): a change is undone once, and an undone use is no longer usage.
 * Locks, in the order of docs/decisions/009-ledger-lock-order.md: the garages stock goes back to
 * (FOR KEY SHARE: not deleted meanwhile), the unit (FOR UPDATE: undos of a unit take turns and no
 * change of its stock is half-way), its stock rows, the garages' rows; rows opened again last.
 * @returns the unit as it is after.
 * @throws 404 for an unknown unit, or an id that is not a stock change of this unit;
 *   CONFLICT when one cannot be undone (its kind, undone already, the stock used or moved since,
 *   the garage deleted).
 */
export async function reverseMovements(db: Db, who: TenantIdentity, unitId: string, movementIds: string[]): Promise<Unit> {
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
    // The garage side of a transfer was written in the same transaction: same time, same transfer id.
    const movements = await queryRows<UnitMovement>(
      tx,
      sql`select l.id, l.item_id, i.name as item_name, l.quantity_change, l.type, l.note, g.garage_id
          from inventory_logs l
          left join inventory_logs g on g.tenant_id = l.tenant_id and g.created_at = l.created_at
            and g.transfer_id = l.transfer_id and g.source_type = 'garage'
          left join items i on i.tenant_id = l.tenant_id and i.id = l.item_id
          where l.tenant_id = ${tenantId} and l.id = any(${pgArray(movementIds)}::uuid[])
            and l.source_type = 'unit' and l.unit_id = ${unitId}
          order by l.item_id, l.id`,
    );
    if (movements.length !== movementIds.length) throw notFound('Stock change');
    const plan = movements.map((m) => ({ ...m, change: Number(m.quantity_change), kind: reversalOf(m) }));
    if (plan.some((m) => m.kind === null)) throw cannotUndo('This change cannot be undone');

    const garageIds = [...new Set(plan.flatMap((m) => (m.kind === 'transfer' ? [m.garage_id!] : [])))].sort();
    for (const garageId of garageIds) {
      const [found] = await queryRows(tx, sql`select 1 from garages where tenant_id = ${tenantId} and id = ${garageId} for key share`);
      if (!found) throw cannotUndo('The garage this stock came from was deleted. Nothing was changed.');
    }
    await lockUnit(tx, tenantId, unitId, 'update');
    const itemIds = [...new Set(plan.map((m) => m.item_id))].sort();
    // Undos of the unit take turns on its lock, so this check and the marking below cannot interleave.
    const [undone] = await queryRows(
      tx,
      sql`select 1 from inventory_logs
          where tenant_id = ${tenantId} and id = any(${pgArray(movementIds)}::uuid[]) and reversed_at is not null
          limit 1`,
    );
    if (undone) throw cannotUndo('This change was already undone');
    const held = await queryRows<{ item_id: string }>(
      tx,
      sql`select item_id from unit_inventory
          where tenant_id = ${tenantId} and unit_id = ${unitId} and item_id = any(${pgArray(itemIds)}::uuid[])
          order by item_id for update`,
    );
    const tracked = new Set(held.map((r) => r.item_id));
    for (const garageId of garageIds) {
      const items = [...new Set(plan.filter((m) => m.garage_id === garageId).map((m) => m.item_id))].sort();
      await tx.execute(
        sql`select 1 from garage_inventory where tenant_id = ${tenantId} and garage_id = ${garageId}
            and item_id = any(${pgArray(items)}::uuid[]) order by item_id for update`,
      );
    }

    const unit = { kind: 'unit', id: unitId } as const;
    const usedSince = (m: { item_name: string | null }) =>
      cannotUndo(`This change can no longer be undone: ${m.item_name} has been used or moved since. Nothing was changed.`);
    for (const m of plan) {
      const meta = { tenantId, userId: who.userId, note: reversalNote(m.id) };
      if (m.kind === 'removal') {
        await ensureStockRow(tx, tenantId, unit, m.item_id);
        await changeStock(tx, unit, m.item_id, -m.change, 'count', meta);
        tracked.add(m.item_id);
        continue;
      }
      if (!tracked.has(m.item_id)) {
        throw cannotUndo(`This change can no longer be undone: ${m.item_name} was removed from this unit. Nothing was changed.`);
      }
      if (m.kind === 'consumption') {
        await changeStock(tx, unit, m.item_id, -m.change, 'consumption', meta);
      } else if (m.kind === 'addition') {
        if ((await changeStock(tx, unit, m.item_id, -m.change, m.type as 'initial' | 'external_addition', meta)) === null) throw usedSince(m);
      } else {
        const transfer = { ...meta, transferId: randomUUID() };
        if ((await changeStock(tx, unit, m.item_id, -m.change, 'restock', transfer)) === null) throw usedSince(m);
        const garage = { kind: 'garage', id: m.garage_id! } as const;
        await ensureStockRow(tx, tenantId, garage, m.item_id);
        if ((await changeStock(tx, garage, m.item_id, m.change, 'restock', transfer)) === null) {
          throw new ConcurrentChange(`stock row of item ${m.item_id} at garage ${m.garage_id} vanished`);
        }
      }
    }
    // Undone rows leave usage (migration 0016): the daily totals' triggers take them out.
    await tx.execute(
      sql`update inventory_logs set reversed_at = now()
          where tenant_id = ${tenantId} and id = any(${pgArray(movementIds)}::uuid[])`,
    );
    return (await readUnits(tx, tenantId, unitId))[0]!;
  });
}
