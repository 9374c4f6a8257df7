/**
 * The items a stock line names must be the company's own (docs/product.md "Validation rules"):
 * checked by every writer of stock lines — garages, units, onboarding and the stock commands —
 * before it writes, so that a line naming another company's item, or a deleted one, is refused as
 * not found rather than by a foreign-key error.
 */
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { notFound } from '../../lib/errors';

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
