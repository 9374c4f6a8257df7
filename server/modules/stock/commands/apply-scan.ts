/**
 * Applying a photo scan (docs/product.md "Screens: AI photo scanner", docs/decisions/035-photo-scanner.md):
 * the counts the user confirms are brought to the scan's unit once, through the ledger.
 *
 * With a garage, every confirmed line is a `scan` transfer from the unit's garage, all of them or
 * none ('Some items exceed available garage stock: {names}', an item the garage has no row of
 * counting as exceeding); without a garage the pieces are received stock at the unit (`initial`
 * for a new stock row, else `external_addition`). The scan row is locked first and marked applied
 * in the same transaction, so a second apply — a double tap, a retried request — waits for the
 * first and is refused (CONFLICT). Every ledger row the apply writes carries the scan's id
 * (`app.scan_id`, migration 0017).
 */
import { sql } from 'drizzle-orm';
import type { ApplyScanBody, ApplyScanResult } from '../../../../common/contracts/scans';
import { scanMessages } from '../../../../common/contracts/scans';
import { pgArray, queryRows, type Db, type Tx } from '../../../db/client';
import { ConcurrentChange, setLocalUuid, withTenant } from '../../../db/tenant-tx';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { changeStock, ensureStockRow } from '../ledger';
import { stockLocks, type StockLocks } from '../locks';
import { transferToUnits } from '../transfer';

/**
 * Applies the confirmed counts of a scan once. Lines must name items the scan detected; their
 * quantities may differ from the model's.
 * @returns each line as applied, in the body's order.
 * @throws 404 for an unknown scan, unit or item; VALIDATION for a line the scan did not detect,
 *   or a restock of a scan that is not a unit's; CONFLICT when the scan was applied already, or
 *   'Some items exceed available garage stock: {names}'.
 */
export async function applyScan(db: Db, who: TenantIdentity, scanId: string, body: ApplyScanBody): Promise<ApplyScanResult> {
  const { tenantId } = who;
  return withTenant(db, tenantId, async (tx) => {
    const locks = stockLocks(tx, tenantId);
    // The first lock: only applies lock a scan, so a second apply of it waits here for the first.
    const found = await locks.scan(scanId);
    if (!found) throw notFound('Scan');
    if (found.applied) throw new AppError('CONFLICT', scanMessages.alreadyApplied);
    if (found.unitId === null) throw new AppError('VALIDATION', 'Restock applies to the scan of a unit');
    const detected = new Set(found.detected);
    const undetected = body.items.flatMap((l, k) => (detected.has(l.item_id) ? [] : [k]));
    if (undetected.length > 0) {
      throw new AppError(
        'VALIDATION',
        'Only items found in this photo can be confirmed',
        undetected.map((k) => ({ path: ['items', k, 'item_id'], message: 'This item was not found in this photo' })),
      );
    }
    await tx.execute(sql.raw(setLocalUuid('app.scan_id', scanId)));
    const applied = await bringToUnit(tx, locks, who, found.unitId, body.items);
    await tx.execute(
      sql`update scans set applied_at = now(), applied_by = ${who.userId}, applied_mode = ${body.mode}
          where tenant_id = ${tenantId} and id = ${scanId}`,
    );
    return { scan_id: scanId, mode: body.mode, applied };
  });
}

/**
 * The lines brought to the unit, from its garage when it has one. Locks after the scan, in the
 * lock order: the unit (FOR SHARE: its garage stays), its stock rows of the lines' items, the
 * garage's rows; stock rows the unit lacks are opened last (their insert locks the item).
 */
async function bringToUnit(tx: Tx, locks: StockLocks, who: TenantIdentity, unitId: string, lines: ApplyScanBody['items']): Promise<ApplyScanResult['applied']> {
  const { tenantId } = who;
  const unit = (await locks.units([unitId], 'share')).get(unitId);
  if (!unit) throw notFound('Unit');
  const itemIds = lines.map((l) => l.item_id);
  const named = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from items where tenant_id = ${tenantId} and id = any(${pgArray(itemIds)}::uuid[])`,
  );
  if (named.length !== itemIds.length) throw notFound('Item');
  const nameOf = new Map(named.map((i) => [i.id, i.name]));
  const tracked = await locks.unitRows(unitId, { items: itemIds });
  const location = { kind: 'unit', id: unitId } as const;
  const byItem = [...lines].sort((a, b) => (a.item_id < b.item_id ? -1 : 1));
  // A row the unit did not hold when its rows were locked, opened now; one opened by another
  // transaction meanwhile would be taken after the garage rows, so the transaction runs again.
  const openRow = async (itemId: string) => {
    if (!(await ensureStockRow(tx, tenantId, location, itemId))) throw new ConcurrentChange(`stock row of item ${itemId} at unit ${unitId} opened meanwhile`);
    return true;
  };

  if (unit.garageId === null) {
    const after = new Map<string, number>();
    for (const line of byItem) {
      const created = !tracked.has(line.item_id) && (await openRow(line.item_id));
      const quantity = await changeStock(tx, location, line.item_id, line.quantity, created ? 'initial' : 'external_addition', {
        tenantId,
        userId: who.userId,
      });
      if (quantity === null) throw new ConcurrentChange(`stock row of item ${line.item_id} at unit ${unitId} vanished`);
      after.set(line.item_id, quantity);
    }
    return lines.map((l) => ({ item_id: l.item_id, item_name: nameOf.get(l.item_id)!, quantity: l.quantity, unit_quantity: after.get(l.item_id)!, garage_quantity: null }));
  }

  const held = await locks.garageRows(unit.garageId, { items: itemIds });
  const short = lines.filter((l) => (held.get(l.item_id) ?? 0) < l.quantity);
  if (short.length > 0) throw new AppError('CONFLICT', scanMessages.garageShort(short.map((l) => nameOf.get(l.item_id)!)));
  for (const line of byItem) {
    if (!tracked.has(line.item_id)) await openRow(line.item_id);
  }
  const outcomes = await transferToUnits(
    tx,
    tenantId,
    byItem.map((l) => ({ unitId, itemId: l.item_id, quantity: l.quantity, userId: who.userId })),
    { type: 'scan' },
  );
  const after = new Map<string, { unit: number; garage: number }>();
  byItem.forEach((line, k) => {
    const outcome = outcomes[k]!;
    // Every row was locked and checked above: a line that did not move means they changed under the locks.
    if (outcome.kind !== 'moved') throw new ConcurrentChange(`scan line of item ${line.item_id} did not move: ${outcome.kind}`);
    after.set(line.item_id, { unit: outcome.unitQuantity, garage: outcome.garageQuantity });
  });
  return lines.map((l) => ({
    item_id: l.item_id,
    item_name: nameOf.get(l.item_id)!,
    quantity: l.quantity,
    unit_quantity: after.get(l.item_id)!.unit,
    garage_quantity: after.get(l.item_id)!.garage,
  }));
}
