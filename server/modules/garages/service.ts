/**
 * Garages — storage locations (docs/product.md "Screens: Garages", "States and transitions" garage
 * creation): reading, creating and editing them. Their stock changes through the stock commands
 * (server/modules/stock/commands/): a new garage's starting stock (`initial` movements), count
 * mode and the API's inventory replace (`count` movements), and deleting one, only once it holds
 * no stock and no property (commands/locations.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import type {
  CreateGarageBody,
  Garage,
  GarageInventoryBody,
  UpdateGarageBody,
} from '../../../common/contracts/stock';
import { queryRows, type Db, type Tx } from '../../db/client';
import { garages } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';
import { assertItemsExist } from '../stock/known-items';
import { assertWithinLimit } from '../billing/plans';
import { replaceGarageStock } from '../stock/commands/count';
import { setStartingStock } from '../stock/commands/locations';

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
    await setStartingStock(tx, who, { kind: 'garage', id: row!.id }, lines);
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
    await replaceGarageStock(tx, who, id, body.inventory);
    return (await readGarages(tx, who.tenantId, id))[0]!;
  });
}
