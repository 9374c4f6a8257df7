/**
 * The last-record rule (SPEC.md §5, §7 check_is_last_record): a tenant always keeps at least
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
 * Refuses to delete the tenant's last record of `table`. Locks the tenant's rows of that table
 * so two concurrent deletes cannot both pass.
 * @throws AppError LAST_RECORD with the spec's message.
 */
export async function assertNotLastRecord(tx: Tx, tenantId: string, table: keyof typeof messages): Promise<void> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from ${sql.raw(table)} where tenant_id = ${tenantId} order by id limit 2 for update`,
  );
  if (rows.length < 2) throw new AppError('LAST_RECORD', messages[table]);
}
