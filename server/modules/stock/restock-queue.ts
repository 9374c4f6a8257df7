/**
 * Restocks of 1 requested at the same moment — the plus button pressed in a burst, by one person
 * or a team — written together (docs/decisions/020-transfer-primitive.md): the restocks of one
 * tenant that arrive while one of its batches is being written wait, and go together into the
 * next one: one transaction with the expired-trial gate, one `transferToUnits` call for all of
 * them (lib/batch.ts). A restock that finds nothing in progress starts at once. `npm run bench`
 * measured the batching worth keeping (docs/performance.md "Restock").
 */
import type { Db } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { batch } from '../../lib/batch';
import { assertAccess } from '../billing/plans';
import { transferToUnits, type TransferOutcome } from './transfer';

/** A restock of 1 of `itemId` to `unitId`, requested by `userId` of `tenantId` at `now` (UTC). */
export interface RestockRequest {
  tenantId: string;
  userId: string;
  unitId: string;
  itemId: string;
  now: Date;
}

const queues = new WeakMap<Db, (request: RestockRequest) => Promise<TransferOutcome>>();

function queueOf(db: Db): (request: RestockRequest) => Promise<TransferOutcome> {
  let queue = queues.get(db);
  if (!queue) {
    queue = batch(
      (requests: RestockRequest[]) => {
        const tenantId = requests[0]!.tenantId;
        return withTenant(db, tenantId, async (tx) => {
          // Checked again here, inside the write's transaction, for the latest request's time: a
          // burst of presses can outlast the trial or a cancelled subscription.
          await assertAccess(tx, tenantId, requests.at(-1)!.now);
          return transferToUnits(
            tx,
            tenantId,
            requests.map((r) => ({ unitId: r.unitId, itemId: r.itemId, quantity: 1, userId: r.userId })),
            { type: 'restock' },
          );
        });
      },
      (r) => r.tenantId,
      // Two batches at once: while one waits on the database the next is being collected and
      // sent. They cannot deadlock: both take their locks in the order of decision 009.
      { lanes: 2 },
    );
    queues.set(db, queue);
  }
  return queue;
}

/**
 * Restocks 1 of an item at a unit from the unit's garage, written with the other restocks of the
 * tenant waiting at that moment, with the outcome it would have had alone in its arrival order.
 * @throws AppError SUBSCRIPTION_REQUIRED when the tenant's access is blocked (every request of
 *   that batch fails with it); UNAVAILABLE after repeated lost races (tenant-tx.ts).
 */
export function restockOne(db: Db, request: RestockRequest): Promise<TransferOutcome> {
  return queueOf(db)(request);
}
