/**
 * Transfer to a property (docs/product.md "Stock movements and statuses"): `quantity` pieces
 * (>= 1) moved from the unit's garage to the unit in one `restock` transfer, all of it or nothing.
 * The plus button's quick taps add up into one such request (web/features/units/use-stock-taps.ts),
 * as do restock by quantity and "Add Manually" from the garage (docs/decisions/038-stock-commands.md).
 *
 * The transfers of a company's rows that exist are written together with the others sent at the
 * same moment (stock/batched.ts); one for an item the unit does not hold yet opens its row first,
 * in a transaction of its own.
 */
import type { StockMoveResult } from '../../../../common/contracts/stock';
import { stockStatus } from '../../../../common/contracts/stock';
import type { Db, Tx } from '../../../db/client';
import { ConcurrentChange, withTenant } from '../../../db/tenant-tx';
import { notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import { assertItemsExist } from '../known-items';
import { EarlierRequest, writeWithKeys, type KeyInWrite } from '../../../lib/idempotency-store';
import { batchedPerTenant, type KeyedRequest } from '../batched';
import { ensureStockRow } from '../ledger';
import { stockLocks, type StockLocks } from '../locks';
import { garageShort, noGarage } from '../refusals';
import { transferToUnits, type TransferOutcome } from '../transfer';

/**
 * Opens the unit's stock row of an item it does not hold yet, refusing first what the transfer
 * would refuse. The garage's row is locked before the new unit row is inserted (whose trigger
 * locks the item, the last step of the lock order): no other transaction can hold a row not
 * inserted yet, and one opening the same row locks the same garage row first, so they take turns.
 * @throws 404 for an unknown item; CONFLICT as the transfer
 */
async function openRowForTransfer(
  tx: Tx,
  locks: StockLocks,
  tenantId: string,
  unitId: string,
  garageId: string | null,
  itemId: string,
  quantity: number,
): Promise<void> {
  if (garageId === null) throw noGarage();
  await assertItemsExist(tx, tenantId, [itemId]);
  const held = await locks.garageRows(garageId, { items: [itemId] });
  if ((held.get(itemId) ?? 0) < quantity) throw garageShort();
  // Opened by another transaction since the unit's rows were locked: taking it now would lock it
  // after the garage row, against the lock order, so the transaction runs again and finds it.
  if (!(await ensureStockRow(tx, tenantId, { kind: 'unit', id: unitId }, itemId))) {
    throw new ConcurrentChange(`stock row of item ${itemId} at unit ${unitId} opened meanwhile`);
  }
}

/** A transfer asked for: `quantity` (pieces, >= 1) of `itemId` to `unitId`, by `userId` of `tenantId`, with its request's key. */
interface TransferRequest extends KeyedRequest {
  userId: string;
  unitId: string;
  itemId: string;
  quantity: number;
}

/**
 * The answer to a transfer's outcome: the quantities after a moved line, else the refusal.
 * @throws 404 for no stock row; CONFLICT 'No garage assigned to this unit' | 'Not enough stock available in garage'
 */
function answer(outcome: TransferOutcome): StockMoveResult {
  if (outcome.kind === 'no_stock_row') throw notFound('Stock row');
  if (outcome.kind === 'no_garage') throw noGarage();
  if (outcome.kind === 'garage_short') throw garageShort();
  return {
    unit_quantity: outcome.unitQuantity,
    garage_quantity: outcome.garageQuantity,
    status: stockStatus(outcome.unitQuantity, outcome.threshold),
    movement_ids: [outcome.movementId],
  };
}

/**
 * The transfers of rows that exist, written together per company, one outcome per request, each
 * request's key claimed and answered with them (a transfer to a row still missing releases it).
 */
const transferTogether = batchedPerTenant(
  (tx, tenantId, requests: TransferRequest[]) =>
    transferToUnits(tx, tenantId, requests.map((r) => ({ unitId: r.unitId, itemId: r.itemId, quantity: r.quantity, userId: r.userId })), { type: 'restock' }),
  answer,
);

/**
 * A transfer to a unit that may not hold the item yet, in its own transaction with its key: the
 * unit (FOR SHARE) and its row are locked; a missing row is opened (openRowForTransfer) before
 * the transfer.
 * @throws as `transferToUnit`; EarlierRequest for a key sent before
 */
async function transferOpeningRow(db: Db, request: TransferRequest): Promise<StockMoveResult> {
  const { tenantId, unitId, itemId, quantity } = request;
  const [result] = await withTenant(db, tenantId, (tx) =>
    writeWithKeys(
      tx,
      tenantId,
      [request],
      async (held) => {
        if (held.length === 0) return [];
        const locks = stockLocks(tx, tenantId);
        const unit = (await locks.units([unitId], 'share')).get(unitId);
        if (!unit) throw notFound('Unit');
        const row = (await locks.unitRows(unitId, { items: [itemId] })).get(itemId);
        if (!row) await openRowForTransfer(tx, locks, tenantId, unitId, unit.garageId, itemId, quantity);
        const [outcome] = await transferToUnits(tx, tenantId, [{ unitId, itemId, quantity, userId: request.userId }], { type: 'restock' });
        // Refused inside the transaction, so a row opened above goes too, and the key's claim.
        return [answer(outcome!)];
      },
      (result) => result,
    ),
  );
  if (result instanceof EarlierRequest) throw result;
  return result!;
}

/**
 * Moves `quantity` of `itemId` from the unit's garage to the unit. A unit without a stock row of
 * the item gets one, so the transfer also adds a new item to the unit.
 * @returns the quantities after (the unit's and its garage's), the row's status and the movement
 *   to undo it.
 * With the request's `key`, the key is claimed and answered in the transfer's transaction.
 * @throws 404 for an unknown unit or item; CONFLICT 'No garage assigned to this unit' |
 *   'Not enough stock available in garage' (nothing is written then, a row opened included);
 *   EarlierRequest for a key sent before (server/lib/idempotency.ts `answerOnce` answers it).
 */
export async function transferToUnit(
  db: Db,
  who: TenantIdentity,
  unitId: string,
  itemId: string,
  quantity: number,
  key?: KeyInWrite,
): Promise<StockMoveResult> {
  const request: TransferRequest = { tenantId: who.tenantId, userId: who.userId, unitId, itemId, quantity, key };
  const outcome = await transferTogether(db, request);
  return outcome.kind === 'no_stock_row' ? transferOpeningRow(db, request) : answer(outcome);
}
