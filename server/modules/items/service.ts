/**
 * Items (docs/product.md "Screens: Items", "Entities", "Validation rules"): the supplies a tenant
 * counts. Money in dollars, stored as numeric(12,2). An item that still has stock anywhere cannot
 * be deleted: its stock must be counted down to 0 first, so stock never disappears outside the
 * ledger.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Item, ItemBody } from '../../../common/contracts/stock';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { items } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/session';
import { assertWithinLimit } from '../billing/plans';
import { assertNotLastRecord } from '../stock/last-record';
import { lockItemStockRows } from '../stock/ledger';

const columns = {
  id: items.id,
  name: items.name,
  category: items.category,
  minimum_threshold: items.minimumThreshold,
  count_cost: items.countCost,
};

const toItem = (r: { id: string; name: string; category: string; minimum_threshold: number; count_cost: string }): Item => ({
  ...r,
  count_cost: Number(r.count_cost),
});

const values = (body: ItemBody) => ({
  name: body.name,
  category: body.category,
  minimumThreshold: body.minimum_threshold,
  countCost: body.count_cost.toFixed(2),
});

/** The tenant's items ordered by name. */
export async function listItems(db: Db, who: TenantIdentity): Promise<Item[]> {
  const rows = await withTenant(db, who.tenantId, (tx) =>
    tx.select(columns).from(items).where(eq(items.tenantId, who.tenantId)).orderBy(asc(items.name), asc(items.id)),
  );
  return rows.map(toItem);
}

/** Creates an item (admins) within the plan's item limit. @throws LIMIT_REACHED */
export async function createItem(db: Db, who: TenantIdentity, body: ItemBody, now: Date): Promise<Item> {
  const [row] = await withTenant(db, who.tenantId, async (tx) => {
    await assertWithinLimit(tx, who.tenantId, 'items', 1, now);
    return tx.insert(items).values({ tenantId: who.tenantId, ...values(body) }).returning(columns);
  });
  return toItem(row!);
}

/** Updates an item (admins). Later ledger rows cost at the new count_cost; earlier ones keep theirs. @throws 404 */
export async function updateItem(db: Db, who: TenantIdentity, id: string, body: ItemBody): Promise<Item> {
  const [row] = await withTenant(db, who.tenantId, async (tx) => {
    const [current] = await tx
      .select({ threshold: items.minimumThreshold })
      .from(items)
      .where(and(eq(items.tenantId, who.tenantId), eq(items.id, id)));
    if (!current) throw notFound('Item');
    // A new threshold is carried to every stock row of the item by ON UPDATE CASCADE: take those
    // rows in the lock order first, as the stock writes do.
    if (current.threshold !== body.minimum_threshold) await lockItemStockRows(tx, who.tenantId, id);
    return tx
      .update(items)
      .set(values(body))
      .where(and(eq(items.tenantId, who.tenantId), eq(items.id, id)))
      .returning(columns);
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
    await lockItemStockRows(tx, who.tenantId, id);
    const [found] = await tx
      .select({ id: items.id })
      .from(items)
      .where(and(eq(items.tenantId, who.tenantId), eq(items.id, id)))
      .for('update');
    if (!found) throw notFound('Item');
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

/**
 * Checks that every id of `itemIds` is an item of the tenant (inside the caller's transaction).
 * @throws AppError NOT_FOUND naming the first unknown id.
 */
export async function assertItemsExist(tx: Tx, tenantId: string, itemIds: string[]): Promise<void> {
  if (itemIds.length === 0) return;
  const found = await queryRows<{ id: string }>(
    tx,
    sql`select id from items where tenant_id = ${tenantId} and id = any(${pgArray(itemIds)}::uuid[])`,
  );
  if (found.length !== new Set(itemIds).size) throw notFound('Item');
}
