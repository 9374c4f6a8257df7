/**
 * Undo (docs/product.md "Stock movements and statuses", docs/decisions/024-undo-by-reverse-movements.md):
 * the reverse of ledger rows of a unit — the ids a stock change answered — all of them or none;
 * history is never deleted. A transfer goes back to the garage it came from (transfer.ts
 * `returnToGarage`), a use comes back (`consumption`), stock received from outside goes out again
 * (its own type), a removed stock row is opened again with what it held (`count`). Each reverse
 * row notes the row it undoes, and the row undone is marked (`reversed_at`): a change is undone
 * once, and an undone use is no longer usage.
 */
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Tx } from '../../../db/client';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { changeStock, ensureStockRow } from '../ledger';
import { stockLocks } from '../locks';
import { returnToGarage } from '../transfer';
import { REMOVED_NOTE } from './remove-stock-row';

/** The note of a reverse movement, naming the ledger row it undoes. */
const reversalNote = (movementId: string) => `Undo of ${movementId}`;

/** A ledger row at the unit, as an undo reads it; `garage_id` is the other side of a transfer. */
interface UnitMovement {
  id: string;
  item_id: string;
  item_name: string | null;
  quantity_change: number;
  type: string;
  note: string | null;
  garage_id: string | null;
}

/** What undoing a ledger row at a unit means, or null when it cannot be undone. */
function reversalOf(m: UnitMovement): 'transfer' | 'consumption' | 'addition' | 'removal' | null {
  const change = Number(m.quantity_change);
  if (m.item_name === null) return null;
  if (m.type === 'restock' && m.garage_id !== null && change > 0) return 'transfer';
  if (m.type === 'consumption' && change < 0) return 'consumption';
  if ((m.type === 'initial' || m.type === 'external_addition') && change > 0) return 'addition';
  if (m.type === 'count' && m.note === REMOVED_NOTE && change < 0) return 'removal';
  return null;
}

const cannotUndo = (message: string) => new AppError('CONFLICT', message);

/**
 * Writes the reverse of `movementIds` (ledger rows of `unitId`) inside the caller's tenant
 * transaction. Locks, in the lock order: the garages stock goes back to (FOR KEY SHARE: not
 * deleted meanwhile), the unit (FOR UPDATE: undos of a unit take turns and no change of its stock
 * is half-way), its stock rows, the garages' rows; rows opened again last.
 * @throws 404 for an unknown unit, or an id that is not a stock change of this unit;
 *   CONFLICT when one cannot be undone (its kind, undone already, the stock used or moved since,
 *   the garage deleted).
 */
export async function undoMovements(tx: Tx, who: TenantIdentity, unitId: string, movementIds: string[]): Promise<void> {
  const tenantId = who.tenantId;
  // The garage side of a transfer was written in the same transaction: same time, same transfer id.
  const movements = await queryRows<UnitMovement>(
    tx,
    sql`select l.id, l.item_id, i.name as item_name, l.quantity_change, l.type, l.note, g.garage_id
        from inventory_logs l
        left join inventory_logs g on g.tenant_id = l.tenant_id and g.created_at = l.created_at
          and g.transfer_id = l.transfer_id and g.source_type = 'garage'
        left join items i on i.tenant_id = l.tenant_id and i.id = l.item_id
        where l.tenant_id = ${tenantId} and l.id = any(${pgArray(movementIds)}::uuid[])
          and l.source_type = 'unit' and l.unit_id = ${unitId}
        order by l.item_id, l.id`,
  );
  if (movements.length !== movementIds.length) throw notFound('Stock change');
  const plan = movements.map((m) => ({ ...m, change: Number(m.quantity_change), kind: reversalOf(m) }));
  if (plan.some((m) => m.kind === null)) throw cannotUndo('This change cannot be undone');

  const locks = stockLocks(tx, tenantId);
  const garageIds = [...new Set(plan.flatMap((m) => (m.kind === 'transfer' ? [m.garage_id!] : [])))].sort();
  const garages = await locks.garages(garageIds, 'key share');
  if (garages.size !== garageIds.length) throw cannotUndo('The garage this stock came from was deleted. Nothing was changed.');
  if (!(await locks.units([unitId], 'update')).has(unitId)) throw notFound('Unit');
  // Undos of the unit take turns on its lock, so this check and the marking below cannot interleave.
  const [undone] = await queryRows(
    tx,
    sql`select 1 from inventory_logs
        where tenant_id = ${tenantId} and id = any(${pgArray(movementIds)}::uuid[]) and reversed_at is not null
        limit 1`,
  );
  if (undone) throw cannotUndo('This change was already undone');
  const tracked = new Set((await locks.unitRows(unitId, { items: plan.map((m) => m.item_id) })).keys());
  for (const garageId of garageIds) {
    await locks.garageRows(garageId, { items: plan.filter((m) => m.garage_id === garageId).map((m) => m.item_id) });
  }

  const unit = { kind: 'unit', id: unitId } as const;
  const usedSince = (m: { item_name: string | null }) =>
    cannotUndo(`This change can no longer be undone: ${m.item_name} has been used or moved since. Nothing was changed.`);
  for (const m of plan) {
    const meta = { tenantId, userId: who.userId, note: reversalNote(m.id) };
    if (m.kind === 'removal') {
      await ensureStockRow(tx, tenantId, unit, m.item_id);
      await changeStock(tx, unit, m.item_id, -m.change, 'count', meta);
      tracked.add(m.item_id);
      continue;
    }
    if (!tracked.has(m.item_id)) {
      throw cannotUndo(`This change can no longer be undone: ${m.item_name} was removed from this unit. Nothing was changed.`);
    }
    if (m.kind === 'consumption') {
      await changeStock(tx, unit, m.item_id, -m.change, 'consumption', meta);
    } else if (m.kind === 'addition') {
      if ((await changeStock(tx, unit, m.item_id, -m.change, m.type as 'initial' | 'external_addition', meta)) === null) throw usedSince(m);
    } else {
      const line = { unitId, garageId: m.garage_id!, itemId: m.item_id, quantity: m.change, userId: who.userId };
      if (!(await returnToGarage(tx, tenantId, line, meta.note))) throw usedSince(m);
    }
  }
  // Undone rows leave usage (migration 0016): the daily totals' triggers take them out.
  await tx.execute(
    sql`update inventory_logs set reversed_at = now()
        where tenant_id = ${tenantId} and id = any(${pgArray(movementIds)}::uuid[])`,
  );
}
