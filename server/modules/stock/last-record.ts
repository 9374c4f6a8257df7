/**
 * The last-record rule (docs/product.md "Server rules"): a tenant always keeps at least
 * one unit, one garage and one item.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { AppError } from '../../lib/errors';

const messages = {
  units: 'You must maintain at least one property in your account',
  garages: 'You must maintain at least one storage location in your account',
  items: 'You must maintain at least one inventory item in your account',
} as const;

/**
 * Refuses to delete the tenant's last record of `table`. Deletes of one table and tenant take
 * turns on a transaction-level advisory lock, so two concurrent deletes cannot both pass; it
 * locks no row, so it adds nothing to the stock lock order (docs/decisions/009-ledger-lock-order.md).
 * @throws AppError LAST_RECORD with the spec's message.
 */
export async function assertNotLastRecord(tx: Tx, tenantId: string, table: keyof typeof messages): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${tenantId}:${table}`}, 0))`);
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${sql.raw(table)} where tenant_id = ${tenantId}`,
  );
  if (row!.n < 2) throw new AppError('LAST_RECORD', messages[table]);
}
