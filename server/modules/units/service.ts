/**
 * Units — properties (docs/product.md "Screens: Units", "Screens: Add Unit", "Screens: Unit detail", "Stock movements and statuses").
 * The minus button is a `consumption` of 1 floored at 0; the plus button is a real `restock`
 * transfer of 1 from the unit's garage (the garage loses what the unit gains); restock by quantity
 * and "Restock to minimum" move more at once, by the same transfer (stock/transfer.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import type {
  AddUnitStockBody,
  CreateUnitBody,
  RestockToMinimumResult,
  StockChangeResult,
  Unit,
  UpdateUnitBody,
} from '../../../common/contracts/stock';
import { stockStatus } from '../../../common/contracts/stock';
import { queryRows, type Db, type Tx } from '../../db/client';
import { garages, units } from '../../db/schema/stock';
import { ConcurrentChange, withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/session';
import { assertItemsExist } from '../items/service';
import { assertAccess, assertWithinLimit } from '../billing/plans';
import { assertNotLastRecord } from '../stock/last-record';
import { stockStatusSql } from '../stock/rules';
import { changeStock, ensureStockRow, removeStockRow, setStock, zeroLocation } from '../stock/ledger';
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
 * "Add Manually": adds `quantity` of an item to the unit — `initial` for a new stock row,
 * `external_addition` for an existing one. @throws 404
 */
export async function addUnitStock(db: Db, who: TenantIdentity, unitId: string, body: AddUnitStockBody): Promise<StockChangeResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await lockUnit(tx, who.tenantId, unitId, 'share');
    const threshold = await thresholdOf(tx, who.tenantId, body.item_id);
    const location = { kind: 'unit', id: unitId } as const;
    const meta = { tenantId: who.tenantId, userId: who.userId };
    const created = await ensureStockRow(tx, who.tenantId, location, body.item_id);
    const quantity = await changeStock(tx, location, body.item_id, body.quantity, created ? 'initial' : 'external_addition', meta);
    if (quantity === null) throw new ConcurrentChange(`stock row of item ${body.item_id} at unit ${unitId} vanished`);
    return { unit_quantity: quantity, garage_quantity: null, status: stockStatus(quantity, threshold) };
  });
}

/**
 * Locks the unit (FOR SHARE: its garage cannot change and it cannot be deleted meanwhile) and
 * reads the threshold of its stock row of an item: the first step of the lock order for a change of that row.
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
  return { threshold: Number(row.threshold) };
}

/**
 * The minus button: consumes 1 at the unit; at 0 nothing changes (docs/product.md "Stock movements and statuses"). The expired-trial
 * gate is checked inside the same transaction (`now`): plus and minus are pressed in bursts.
 * @throws 404; SUBSCRIPTION_REQUIRED
 */
export async function consumeUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string, now: Date): Promise<StockChangeResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertAccess(tx, who.tenantId, now);
    // The unit first: the usage this writes makes the ledger's trigger lock the unit too, after
    // the stock row, which would invert the lock order if the unit were not held already.
    const row = await lockUnitRow(tx, who.tenantId, unitId, itemId);
    const after = await changeStock(tx, { kind: 'unit', id: unitId }, itemId, -1, 'consumption', {
      tenantId: who.tenantId,
      userId: who.userId,
    });
    const quantity = after ?? 0; // null: already at 0, floored
    return { unit_quantity: quantity, garage_quantity: null, status: stockStatus(quantity, row.threshold) };
  });
}

/**
 * The answer to a restock of one stock row: the quantities after a moved line, else the refusal.
 * @throws 404 for no stock row; CONFLICT 'No garage assigned to this unit' | 'Not enough stock available in garage'
 */
function restockAnswer(outcome: TransferOutcome): StockChangeResult {
  if (outcome.kind === 'no_stock_row') throw notFound('Stock row');
  if (outcome.kind === 'no_garage') throw new AppError('CONFLICT', 'No garage assigned to this unit');
  if (outcome.kind === 'garage_short') throw new AppError('CONFLICT', 'Not enough stock available in garage');
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
 * Restock by quantity: one `restock` transfer of `quantity` (pieces, >= 1) from the unit's
 * garage, all of it or nothing (docs/product.md "Stock movements and statuses"). Answers like
 * the plus button.
 * @throws 404; CONFLICT 'No garage assigned to this unit' | 'Not enough stock available in garage'
 */
export async function transferUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string, quantity: number): Promise<StockChangeResult> {
  const [outcome] = await withTenant(db, who.tenantId, (tx) =>
    transferToUnits(tx, who.tenantId, [{ unitId, itemId, quantity, userId: who.userId }], { type: 'restock' }),
  );
  return restockAnswer(outcome!);
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
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
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
    if (low.length === 0) return { moved: [], short: [] };
    if (unit.garageId === null) throw new AppError('CONFLICT', 'No garage assigned to this unit');
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
    const result: RestockToMinimumResult = { moved: [], short: [] };
    for (const a of asked.sort((x, y) => x.item_name.localeCompare(y.item_name))) {
      const moved = movedOf.get(a.item_id) ?? 0;
      if (moved > 0) result.moved.push({ item_id: a.item_id, item_name: a.item_name, quantity: moved });
      if (moved < a.wanted) result.short.push({ item_id: a.item_id, item_name: a.item_name, missing: a.wanted - moved });
    }
    return result;
  });
}

/** Removes an item's stock row from the unit, counting it down to 0 in the ledger first. @throws 404 */
export async function removeUnitStock(db: Db, who: TenantIdentity, unitId: string, itemId: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    // FOR UPDATE: deleting a stock row waits for every change of the unit's stock in progress
    // (they hold the unit FOR SHARE), so none of them finds its row gone half-way.
    await lockUnit(tx, who.tenantId, unitId, 'update');
    await lockUnitRow(tx, who.tenantId, unitId, itemId);
    await removeStockRow(tx, { kind: 'unit', id: unitId }, itemId, { tenantId: who.tenantId, userId: who.userId, note: 'Removed from unit' });
  });
}
