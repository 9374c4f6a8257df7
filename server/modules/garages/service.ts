/**
 * Garages — storage locations (docs/product.md "Screens: Garages", "States and transitions" garage
 * creation, "Stock movements and statuses"). Creating a garage with stock writes `initial`
 * movements; count mode and the API's inventory replace are stocktakes whose changes are `count`
 * movements; a garage is deleted only once it holds no stock and no property.
 */
import { and, eq, sql } from 'drizzle-orm';
import type {
  CreateGarageBody,
  Garage,
  GarageInventoryBody,
  UpdateGarageBody,
} from '../../../common/contracts/stock';
import type { CountBody, CountResult } from '../../../common/contracts/count';
import { queryRows, type Db, type Tx } from '../../db/client';
import { garages } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/session';
import { assertItemsExist } from '../items/service';
import { assertWithinLimit } from '../billing/plans';
import { applyCount } from '../stock/count';
import { assertNotLastRecord } from '../stock/last-record';
import { removeStockRow, setStock } from '../stock/ledger';

type Row = { id: string; name: string; address: string; inventory: Garage['inventory'] | null };

/** Reads garages of the tenant (all, or the one of `id`) with their stock, ordered by name. */
async function readGarages(tx: Tx, tenantId: string, id?: string): Promise<Garage[]> {
  const rows = await queryRows<Row>(
    tx,
    sql`
    select g.id, g.name, g.address,
      (select json_agg(json_build_object('item_id', s.item_id, 'item_name', i.name, 'quantity', s.quantity) order by i.name)
       from garage_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
       where s.tenant_id = g.tenant_id and s.garage_id = g.id) as inventory
    from garages g
    where g.tenant_id = ${tenantId} ${id ? sql`and g.id = ${id}` : sql``}
    order by g.name, g.id`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, address: r.address, inventory: r.inventory ?? [] }));
}

/**
 * Locks the garage, the first step of the lock order (docs/decisions/009-ledger-lock-order.md):
 * `update` to delete it, `no key update` to count its stock (stocktakes of one garage take turns;
 * units may still be assigned to it meanwhile). @returns its name. @throws 404
 */
async function lockGarage(tx: Tx, tenantId: string, id: string, mode: 'update' | 'no key update'): Promise<string> {
  const [found] = await tx
    .select({ name: garages.name })
    .from(garages)
    .where(and(eq(garages.tenantId, tenantId), eq(garages.id, id)))
    .for(mode);
  if (!found) throw notFound('Garage');
  return found.name;
}

/** The tenant's garages with their stock. */
export async function listGarages(db: Db, who: TenantIdentity): Promise<Garage[]> {
  return withTenant(db, who.tenantId, (tx) => readGarages(tx, who.tenantId));
}

/**
 * Creates a garage with its initial inventory (admins) within the plan's garage limit; lines of
 * quantity 0 are skipped. @throws 404 for an unknown item; LIMIT_REACHED
 */
export async function createGarage(db: Db, who: TenantIdentity, body: CreateGarageBody, now: Date): Promise<Garage> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertWithinLimit(tx, who.tenantId, 'garages', 1, now);
    const lines = body.inventory.filter((l) => l.quantity > 0);
    await assertItemsExist(tx, who.tenantId, lines.map((l) => l.item_id));
    const [row] = await tx
      .insert(garages)
      .values({ tenantId: who.tenantId, name: body.name, address: body.address })
      .returning({ id: garages.id });
    const location = { kind: 'garage', id: row!.id } as const;
    for (const line of lines) {
      await setStock(tx, location, line.item_id, line.quantity, { tenantId: who.tenantId, userId: who.userId }, 'initial');
    }
    return (await readGarages(tx, who.tenantId, row!.id))[0]!;
  });
}

/** Renames / re-addresses a garage, or sets its lead time when the body names one (admins). @throws 404 */
export async function updateGarage(db: Db, who: TenantIdentity, id: string, body: UpdateGarageBody): Promise<Garage> {
  return withTenant(db, who.tenantId, async (tx) => {
    const updated = await tx
      .update(garages)
      .set({ name: body.name, address: body.address, ...(body.lead_time_days === undefined ? {} : { leadTimeDays: body.lead_time_days }) })
      .where(and(eq(garages.tenantId, who.tenantId), eq(garages.id, id)))
      .returning({ id: garages.id });
    if (updated.length === 0) throw notFound('Garage');
    return (await readGarages(tx, who.tenantId, id))[0]!;
  });
}

/**
 * The API's inventory replace (no screen since count mode, docs/decisions/026-stocktake.md): the
 * garage's stock becomes exactly `body.inventory` (members may count
 * stock). Changed rows are `count` movements; rows left out (or at 0) are counted to 0 and removed.
 * @throws 404 for an unknown garage or item
 */
export async function replaceGarageInventory(
  db: Db,
  who: TenantIdentity,
  id: string,
  body: GarageInventoryBody,
): Promise<Garage> {
  return withTenant(db, who.tenantId, async (tx) => {
    await lockGarage(tx, who.tenantId, id, 'no key update');
    await assertItemsExist(tx, who.tenantId, body.inventory.map((l) => l.item_id));
    const location = { kind: 'garage', id } as const;
    const meta = { tenantId: who.tenantId, userId: who.userId, note: 'Inventory count' };
    const keep = new Map(body.inventory.filter((l) => l.quantity > 0).map((l) => [l.item_id, l.quantity]));
    // Every stock row of the garage, locked in key order before any is changed.
    const current = await queryRows<{ item_id: string }>(
      tx,
      sql`select item_id from garage_inventory where tenant_id = ${who.tenantId} and garage_id = ${id} order by item_id for update`,
    );
    for (const { item_id } of current) {
      if (!keep.has(item_id)) await removeStockRow(tx, location, item_id, meta);
    }
    for (const [itemId, quantity] of [...keep].sort(([a], [b]) => a.localeCompare(b))) {
      await setStock(tx, location, itemId, quantity, meta);
    }
    return (await readGarages(tx, who.tenantId, id))[0]!;
  });
}

/**
 * Count mode at a garage (members, docs/product.md "Screens: Count"): the counted lines become its
 * stock in one transaction, one `count` movement per changed row (stock/count.ts). Stocktakes of
 * one garage take turns (the garage FOR NO KEY UPDATE).
 * @throws 404 for an unknown garage or item; CONFLICT listing the lines whose stock moved since they were counted
 */
export async function countGarage(db: Db, who: TenantIdentity, id: string, body: CountBody): Promise<CountResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await lockGarage(tx, who.tenantId, id, 'no key update');
    return applyCount(tx, who.tenantId, who.userId, { kind: 'garage', id }, body.lines);
  });
}

/**
 * The refusal of a garage delete while the garage still holds stock or properties
 * (docs/product.md "Screens: Garages"): '{name} still holds 31 stock rows and 8 properties: move or
 * remove them first', naming only what it holds.
 */
export function garageInUseMessage(name: string, stockRows: number, properties: number): string {
  const held = [
    ...(stockRows > 0 ? [`${stockRows} stock ${stockRows === 1 ? 'row' : 'rows'}`] : []),
    ...(properties > 0 ? [`${properties} ${properties === 1 ? 'property' : 'properties'}`] : []),
  ];
  return `${name} still holds ${held.join(' and ')}: move or remove them first`;
}

/**
 * Deletes a garage (admins) that holds nothing: no stock row above 0 and no property assigned to
 * it, so nothing is lost by one tap (docs/product.md "Screens: Garages"); its empty stock rows go
 * with it.
 * @throws 404; LAST_RECORD for the tenant's last garage; CONFLICT (garageInUseMessage) while it
 *   holds stock or properties.
 */
export async function deleteGarage(db: Db, who: TenantIdentity, id: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    // FOR UPDATE: no unit can be assigned to it (that takes the garage FOR KEY SHARE) and its
    // stock cannot be counted (FOR NO KEY UPDATE) until this ends.
    const name = await lockGarage(tx, who.tenantId, id, 'update');
    await assertNotLastRecord(tx, who.tenantId, 'garages');
    // Its stock rows, empty ones too, locked in key order before the delete removes them.
    const rows = await queryRows<{ quantity: number }>(
      tx,
      sql`select quantity from garage_inventory where tenant_id = ${who.tenantId} and garage_id = ${id} order by item_id for update`,
    );
    const [assigned] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from units where tenant_id = ${who.tenantId} and garage_id = ${id}`,
    );
    const stocked = rows.filter((r) => Number(r.quantity) > 0).length;
    if (stocked > 0 || assigned!.n > 0) throw new AppError('CONFLICT', garageInUseMessage(name, stocked, assigned!.n));
    await tx.delete(garages).where(and(eq(garages.tenantId, who.tenantId), eq(garages.id, id)));
  });
}
