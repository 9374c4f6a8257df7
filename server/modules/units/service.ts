/**
 * Units — properties (docs/product.md "Screens: Units", "Screens: Add Unit", "Screens: Unit
 * detail"): reading them, creating, editing and assigning them to a garage. What changes their
 * stock is a stock command (server/modules/stock/commands/, docs/decisions/038-stock-commands.md).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { CreateUnitBody, Unit, UpdateUnitBody } from '../../../common/contracts/stock';
import { queryRows, type Db, type Tx } from '../../db/client';
import { units } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';
import { assertItemsExist } from '../stock/known-items';
import { assertWithinLimit } from '../billing/plans';
import { setStartingStock } from '../stock/commands/locations';
import { undoMovements } from '../stock/commands/undo';
import { stockLocks } from '../stock/locks';
import { stockStatusSql } from '../stock/rules';

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
 * Checks that the garage exists and holds it (the stock locks' garage step, mode 'key share') until
 * the transaction ends, so it cannot be deleted before a unit assigned to it is written (the lock
 * order's first step). @throws 404
 */
async function holdGarageForAssignment(tx: Tx, tenantId: string, garageId: string): Promise<void> {
  if (!(await stockLocks(tx, tenantId).garages([garageId], 'key share')).has(garageId)) throw notFound('Garage');
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
    await holdGarageForAssignment(tx, who.tenantId, body.garage_id);
    await assertItemsExist(tx, who.tenantId, body.inventory.filter((l) => l.quantity > 0).map((l) => l.item_id));
    const [row] = await tx
      .insert(units)
      .values({ tenantId: who.tenantId, name: body.name, address: body.address, garageId: body.garage_id })
      .returning({ id: units.id });
    await setStartingStock(tx, who, { kind: 'unit', id: row!.id }, body.inventory);
    return (await readUnits(tx, who.tenantId, row!.id))[0]!;
  });
}

/** Edit Unit / Assign Garage (admins). @throws 404 for an unknown unit or garage */
export async function updateUnit(db: Db, who: TenantIdentity, id: string, body: UpdateUnitBody): Promise<Unit> {
  return withTenant(db, who.tenantId, async (tx) => {
    const locks = stockLocks(tx, who.tenantId);
    if (body.garage_id && !(await locks.garages([body.garage_id], 'key share')).has(body.garage_id)) throw notFound('Garage');
    if (!(await locks.units([id], 'update')).has(id)) throw notFound('Unit');
    await tx
      .update(units)
      .set({ name: body.name, address: body.address, garageId: body.garage_id })
      .where(and(eq(units.tenantId, who.tenantId), eq(units.id, id)));
    return (await readUnits(tx, who.tenantId, id))[0]!;
  });
}

/**
 * Undo of stock changes at a unit (docs/product.md "Stock movements and statuses"): the stock
 * command stock/commands/undo.ts, then the unit as it is after, in one transaction.
 * @returns the unit after. @throws as `undoMovements`
 */
export async function reverseMovements(db: Db, who: TenantIdentity, unitId: string, movementIds: string[]): Promise<Unit> {
  return withTenant(db, who.tenantId, async (tx) => {
    await undoMovements(tx, who, unitId, movementIds);
    return (await readUnits(tx, who.tenantId, unitId))[0]!;
  });
}
