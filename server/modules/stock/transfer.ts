/**
 * The transfer: stock moved from a unit's garage to the unit (docs/product.md "Stock movements
 * and statuses": `restock`, `scan`), the one way stock goes from storage to a property
 * (docs/decisions/020-transfer-primitive.md). The stock commands that bring stock to a property —
 * the plus taps, restock by quantity, restock to minimum, pick-list delivery, a scan's apply — and
 * the demo data all call `transferToUnits` (docs/decisions/038-stock-commands.md).
 *
 * Undo sends a transfer back the other way with `returnToGarage`: the same two movements, signs
 * reversed, sharing a transfer id (docs/decisions/024-undo-by-reverse-movements.md).
 *
 * The work is one call of the SQL function `transfer_to_units` (migrations 0013, 0026 and 0027): it
 * takes every lock first, in the order of docs/decisions/009-ledger-lock-order.md (units, their
 * stock rows, then the garage rows), then moves the lines by rounds — a line's round is its rank
 * among the call's lines of the same garage and item, one statement per round, each line guarded
 * so the garage never goes below zero — and writes two ledger rows per moved line sharing a
 * transfer id, all by one statement. Rounds run in order, so each line gets the outcome it would
 * have had alone after the lines before it.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { ConcurrentChange } from '../../db/tenant-tx';
import { changeStock, ensureStockRow } from './ledger';

/** One line of a transfer: `quantity` (pieces, > 0) of `itemId` to `unitId`, moved by `userId`. */
export interface TransferLine {
  unitId: string;
  itemId: string;
  quantity: number;
  userId: string | null;
}

/**
 * What became of a line: `moved`, with the quantities right after it (the unit's, its garage's),
 * the item's minimum threshold and the movement written at the unit (what Undo reverses); or why nothing moved: the unit has no stock row of the item
 * (`no_stock_row`, also for an unknown unit), the unit has no garage (`no_garage`), or the garage
 * holds less than the line asks (`garage_short`).
 */
export type TransferOutcome =
  | { kind: 'moved'; unitQuantity: number; garageQuantity: number; threshold: number; movementId: string }
  | { kind: 'no_stock_row' }
  | { kind: 'no_garage' }
  | { kind: 'garage_short' };

/** The ledger type and note the moved lines are recorded with. */
export interface TransferRecord {
  type: 'restock' | 'scan';
  note?: string | null;
}

/**
 * Moves each line's quantity from the unit's garage to the unit, in the lines' order, inside the
 * caller's tenant transaction: each line gets the outcome it would have had alone, after the
 * lines before it. Nothing is written for a line that does not move.
 * @returns one outcome per line, in the lines' order.
 * @throws the database's error 22023 for a quantity that is not positive (callers validate first).
 */
export async function transferToUnits(tx: Tx, tenantId: string, lines: TransferLine[], record: TransferRecord): Promise<TransferOutcome[]> {
  const rows = await queryRows<{
    outcome: 'moved' | 'no_stock_row' | 'no_garage' | 'garage_short';
    garage_quantity: number | null;
    unit_quantity: number | null;
    threshold: number | null;
    movement_id: string | null;
  }>(
    tx,
    sql`select outcome, garage_quantity, unit_quantity, threshold, movement_id
        from transfer_to_units(${tenantId}::uuid, ${pgArray(lines.map((l) => l.unitId))}::uuid[],
          ${pgArray(lines.map((l) => l.itemId))}::uuid[], ${pgArray(lines.map((l) => l.quantity))}::int[],
          ${pgArray(lines.map((l) => l.userId))}::uuid[], ${record.type}::text, ${record.note ?? null}::text)
        order by line`,
  );
  return rows.map((r): TransferOutcome => {
    if (r.outcome !== 'moved') return { kind: r.outcome };
    return {
      kind: 'moved',
      unitQuantity: Number(r.unit_quantity),
      garageQuantity: Number(r.garage_quantity),
      threshold: Number(r.threshold),
      movementId: r.movement_id!,
    };
  });
}

/** A transfer sent back: `quantity` (pieces, > 0) of `itemId` from `unitId` to `garageId`, by `userId`. */
export interface ReturnLine {
  unitId: string;
  garageId: string;
  itemId: string;
  quantity: number;
  userId: string | null;
}

/**
 * Moves a line back from the unit to the garage it came from, inside the caller's tenant
 * transaction, as two `restock` movements sharing a transfer id (minus at the unit, plus at the
 * garage; `note` on both). The caller holds the garage (FOR KEY SHARE), the unit and both stock
 * rows, in the lock order; a garage row missing is opened.
 * @returns false when the unit holds less than `quantity` (nothing is written then), else true.
 * @throws ConcurrentChange when the garage's row vanished (the transaction is retried).
 */
export async function returnToGarage(tx: Tx, tenantId: string, line: ReturnLine, note: string): Promise<boolean> {
  const meta = { tenantId, userId: line.userId, note, transferId: randomUUID() };
  if ((await changeStock(tx, { kind: 'unit', id: line.unitId }, line.itemId, -line.quantity, 'restock', meta)) === null) return false;
  const garage = { kind: 'garage', id: line.garageId } as const;
  await ensureStockRow(tx, tenantId, garage, line.itemId);
  if ((await changeStock(tx, garage, line.itemId, line.quantity, 'restock', meta)) === null) {
    throw new ConcurrentChange(`stock row of item ${line.itemId} at garage ${line.garageId} vanished`);
  }
  return true;
}
