/**
 * Items (docs/product.md "Screens: Items", "Entities", "Validation rules"): the supplies a tenant
 * counts. Money in dollars, stored as numeric(12,2). An item that still has stock anywhere cannot
 * be deleted: its stock must be counted down to 0 first, so stock never disappears outside the
 * ledger.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { itemNameTaken, type Item, type ItemBody } from '../../../common/contracts/stock';
import { queryRows, type Db, type Tx } from '../../db/client';
import { items } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';
import { assertWithinLimit } from '../billing/plans';
import { assertNotLastRecord } from '../stock/last-record';
import { stockLocks } from '../stock/locks';

/** The columns of an item as the API answers it (with toItem). */
export const itemColumns = {
  id: items.id,
  name: items.name,
  category: items.category,
  minimum_threshold: items.minimumThreshold,
  count_cost: items.countCost,
  usage_per_stay_default: items.usagePerStayDefault,
  service_level: items.serviceLevel,
};

/** An item row selected with itemColumns, as the API answers it (count cost in dollars, usage per stay in pieces). */
export const toItem = (r: {
  id: string;
  name: string;
  category: string;
  minimum_threshold: number;
  count_cost: string;
  usage_per_stay_default: string | null;
  service_level: number | null;
}): Item => ({
  ...r,
  count_cost: Number(r.count_cost),
  usage_per_stay_default: r.usage_per_stay_default === null ? null : Number(r.usage_per_stay_default),
});

/**
 * The columns a body sets; a default usage per stay or a service level left out is left as it is
 * (docs/product.md "Forecast", docs/forecast.md "Spread and service level").
 */
const values = (body: ItemBody) => ({
  name: body.name,
  category: body.category,
  minimumThreshold: body.minimum_threshold,
  countCost: body.count_cost.toFixed(2),
  ...(body.usage_per_stay_default === undefined
    ? {}
    : { usagePerStayDefault: body.usage_per_stay_default === null ? null : body.usage_per_stay_default.toFixed(2) }),
  ...(body.service_level === undefined ? {} : { serviceLevel: body.service_level }),
});

/** The tenant's items ordered by name. */
export async function listItems(db: Db, who: TenantIdentity): Promise<Item[]> {
  const rows = await withTenant(db, who.tenantId, (tx) =>
    tx.select(itemColumns).from(items).where(eq(items.tenantId, who.tenantId)).orderBy(asc(items.name), asc(items.id)),
  );
  return rows.map(toItem);
}

/**
 * Refuses `name` when another item of the tenant (not `exceptId`) has it, compared without regard
 * to case (docs/product.md "Validation rules"). Creates and renames of one tenant's items take
 * turns on a transaction-level advisory lock, so two cannot both pass with the same name; it
 * locks no row, so it adds nothing to the stock lock order (docs/decisions/009-ledger-lock-order.md).
 * @throws AppError CONFLICT 'An item named {name} already exists'
 */
async function assertNameFree(tx: Tx, tenantId: string, name: string, exceptId?: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${tenantId}:item-names`}, 0))`);
  const [taken] = await queryRows<{ name: string }>(
    tx,
    sql`select name from items where tenant_id = ${tenantId} and lower(name) = lower(${name})
        ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`,
  );
  if (taken) throw new AppError('CONFLICT', itemNameTaken(taken.name));
}

/** Creates an item (admins) within the plan's item limit. @throws LIMIT_REACHED; CONFLICT for a name in use */
export async function createItem(db: Db, who: TenantIdentity, body: ItemBody, now: Date): Promise<Item> {
  const [row] = await withTenant(db, who.tenantId, async (tx) => {
    await assertWithinLimit(tx, who.tenantId, 'items', 1, now);
    await assertNameFree(tx, who.tenantId, body.name);
    return tx.insert(items).values({ tenantId: who.tenantId, ...values(body) }).returning(itemColumns);
  });
  return toItem(row!);
}

/**
 * Updates an item (admins). Later movements cost at the new count_cost; earlier ones keep theirs.
 * @throws 404; CONFLICT for a name another item has
 */
export async function updateItem(db: Db, who: TenantIdentity, id: string, body: ItemBody): Promise<Item> {
  const [row] = await withTenant(db, who.tenantId, async (tx) => {
    const [current] = await tx
      .select({ threshold: items.minimumThreshold })
      .from(items)
      .where(and(eq(items.tenantId, who.tenantId), eq(items.id, id)));
    if (!current) throw notFound('Item');
    await assertNameFree(tx, who.tenantId, body.name, id);
    // A new threshold is carried to every stock row of the item by the items_threshold_carry
    // trigger (migration 0031): take those rows in the lock order first, as the stock writes do.
    if (current.threshold !== body.minimum_threshold) await stockLocks(tx, who.tenantId).itemRows([id]);
    return tx
      .update(items)
      .set(values(body))
      .where(and(eq(items.tenantId, who.tenantId), eq(items.id, id)))
      .returning(itemColumns);
  });
  if (!row) throw notFound('Item');
  return toItem(row);
}

/**
 * Deletes an item and its empty stock rows (admins).
 * @throws 404; LAST_RECORD for the tenant's last item; CONFLICT while any location holds stock of it.
 */
export async function deleteItem(db: Db, who: TenantIdentity, id: string): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    // Its stock rows (deleted with it by ON DELETE CASCADE) before the item: the lock order.
    const locks = stockLocks(tx, who.tenantId);
    await locks.itemRows([id]);
    if (!(await locks.items([id], 'update')).has(id)) throw notFound('Item');
    await assertNotLastRecord(tx, who.tenantId, 'items');
    const [stock] = await queryRows<{ total: string | number; places: number }>(
      tx,
      sql`select coalesce(sum(quantity), 0)::bigint as total, count(*)::int as places from (
            select quantity from garage_inventory where tenant_id = ${who.tenantId} and item_id = ${id} and quantity > 0
            union all
            select quantity from unit_inventory where tenant_id = ${who.tenantId} and item_id = ${id} and quantity > 0) s`,
    );
    const total = Number(stock!.total);
    if (total > 0) {
      throw new AppError(
        'CONFLICT',
        `This item still has ${total} in stock in ${stock!.places} location${stock!.places === 1 ? '' : 's'}. Set its stock to 0 before deleting it.`,
      );
    }
    await tx.delete(items).where(and(eq(items.tenantId, who.tenantId), eq(items.id, id)));
  });
}

