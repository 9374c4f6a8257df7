/**
 * The stock of a location as it starts and as it ends (docs/product.md "States and transitions",
 * "Stock movements and statuses"): the starting stock of a new garage (Add Garage, setup's storage
 * step) or unit (Add Unit), the empty stock rows of properties created by setup or an import, and
 * deleting a unit or a garage, whose stock is counted to 0 in the ledger first.
 */
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, pgArray, type Db, type Tx } from '../../../db/client';
import { garages, units } from '../../../db/schema/stock';
import { withTenant } from '../../../db/tenant-tx';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { assertNotLastRecord } from '../last-record';
import { setStock, zeroLocation, type MovementMeta } from '../ledger';
import type { Location } from '../tables';
import { stockLocks } from '../locks';

/**
 * Sets the starting stock of a location created or edited in the caller's tenant transaction,
 * line by line in item order after locking the location's rows: a line for an item the location
 * has no row of is recorded as `initial` (skipped at 0), a changed one (setup's step saved again)
 * as a `count` of the difference.
 * The caller has checked that the items are the tenant's.
 */
export async function setStartingStock(
  tx: Tx,
  who: TenantIdentity,
  location: Location,
  lines: readonly { item_id: string; quantity: number }[],
  note?: string,
): Promise<void> {
  const locks = stockLocks(tx, who.tenantId);
  const held = location.kind === 'garage' ? await locks.garageRows(location.id, 'all') : await locks.unitRows(location.id, 'all');
  const meta = { tenantId: who.tenantId, userId: who.userId, note };
  for (const line of [...lines].sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0))) {
    const isNew = !held.has(line.item_id);
    if (isNew && line.quantity === 0) continue;
    await setStock(tx, location, line.item_id, line.quantity, meta, isNew ? 'initial' : 'count');
  }
}

/**
 * Opens a stock row of quantity 0 for every item of the tenant at each of `unitIds` (units created
 * in this transaction, so no other transaction can hold their rows), each recorded as an `initial`
 * movement of 0: the onboarding's and an import's new properties start with every item tracked,
 * and critical (docs/product.md "Server rules" mark_onboarding_complete).
 */
export async function openEmptyUnitStockRows(tx: Tx, unitIds: string[], meta: MovementMeta): Promise<void> {
  const ids = pgArray(unitIds);
  await tx.execute(sql`
    insert into unit_inventory (tenant_id, unit_id, item_id, quantity)
    select i.tenant_id, u.id, i.id, 0
    from unnest(${ids}::uuid[]) as u(id) cross join items i
    where i.tenant_id = ${meta.tenantId}`);
  await tx.execute(sql`
    insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, type, unit_cost, user_id, note)
    select i.tenant_id, i.id, 0, 'unit', u.id, 'initial', i.count_cost, ${meta.userId}::uuid, ${meta.note ?? null}::text
    from unnest(${ids}::uuid[]) as u(id) cross join items i
    where i.tenant_id = ${meta.tenantId}`);
}

/**
 * Deletes a unit (admins), counting its stock down to 0 in the ledger first (noted 'Unit
 * deleted'). The unit is locked FOR UPDATE and every stock row of it, empty ones too, before they go.
 * The unit leaves its garage before its stock is counted: its usage then leaves the garage's usage
 * totals in one pass taken in their key order (migration 0040), and the count's usage does not
 * enter them first, out of that order, to be taken out again.
 * @throws 404; LAST_RECORD for the tenant's last unit
 */
export async function deleteUnit(db: Db, who: TenantIdentity, id: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    if (!(await stockLocks(tx, who.tenantId).units([id], 'update')).has(id)) throw notFound('Unit');
    await assertNotLastRecord(tx, who.tenantId, 'units');
    await tx.update(units).set({ garageId: null }).where(and(eq(units.tenantId, who.tenantId), eq(units.id, id)));
    await zeroLocation(tx, { kind: 'unit', id }, { tenantId: who.tenantId, userId: who.userId, note: 'Unit deleted' });
    await tx.delete(units).where(and(eq(units.tenantId, who.tenantId), eq(units.id, id)));
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
 * with it. The garage is locked FOR UPDATE (no unit can be assigned to it, that takes it FOR KEY
 * SHARE, and its stock cannot be counted meanwhile), then its stock rows, empty ones too.
 * @throws 404; LAST_RECORD for the tenant's last garage; CONFLICT (garageInUseMessage) while it
 *   holds stock or properties.
 */
export async function deleteGarage(db: Db, who: TenantIdentity, id: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    const locks = stockLocks(tx, who.tenantId);
    const garage = (await locks.garages([id], 'update')).get(id);
    if (!garage) throw notFound('Garage');
    await assertNotLastRecord(tx, who.tenantId, 'garages');
    const rows = await locks.garageRows(id, 'all');
    const [assigned] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from units where tenant_id = ${who.tenantId} and garage_id = ${id}`,
    );
    const stocked = [...rows.values()].filter((q) => q > 0).length;
    if (stocked > 0 || assigned!.n > 0) throw new AppError('CONFLICT', garageInUseMessage(garage.name, stocked, assigned!.n));
    await tx.delete(garages).where(and(eq(garages.tenantId, who.tenantId), eq(garages.id, id)));
  });
}
