/**
 * Consumption (docs/product.md "Stock movements and statuses"): the minus button uses `quantity`
 * pieces at a unit (1 unless quick taps were sent together), or what is left when it holds less;
 * at 0 nothing changes. A `consumption` movement is usage (docs/product.md "Reports").
 *
 * The consumptions a company's people send at the same moment are written together
 * (stock/batched.ts) by one call of the SQL function `consume_at_units` (migrations 0026 and 0027),
 * which locks the units FOR SHARE before their stock rows: the usage a consumption writes makes the
 * ledger's trigger lock its unit too, which must not come after the row
 * (docs/decisions/009-ledger-lock-order.md). It then uses the lines by rounds (a line's round is
 * its rank among the call's lines of the same unit and item; one UPDATE per round), so each gets
 * what it would have had alone after the lines before it, and writes every movement by one
 * statement.
 */
import { sql } from 'drizzle-orm';
import type { StockMoveResult } from '../../../../common/contracts/stock';
import { stockStatus } from '../../../../common/contracts/stock';
import { pgArray, queryRows, type Db } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import type { KeyInWrite } from '../../../lib/idempotency-store';
import { batchedPerTenant, type KeyedRequest } from '../batched';

/** A consumption asked for: `quantity` (pieces, >= 1) of `itemId` at `unitId`, by `userId` of `tenantId`, with its request's key. */
interface ConsumeRequest extends KeyedRequest {
  userId: string;
  unitId: string;
  itemId: string;
  quantity: number;
}

/** What became of a consumption: the quantity after, the item's minimum and the movement (null when nothing was used); or no such row. */
type ConsumeOutcome = { kind: 'used'; quantity: number; minimum: number; movementId: string | null } | { kind: 'no_stock_row' };

/**
 * The answer to a consumption's outcome: the quantity after, its status and movement.
 * @throws 404 'Stock row not found' (`consume` says which of the unit or its row is missing)
 */
function answer(outcome: ConsumeOutcome): StockMoveResult {
  if (outcome.kind === 'no_stock_row') throw notFound('Stock row');
  return {
    unit_quantity: outcome.quantity,
    garage_quantity: null,
    status: stockStatus(outcome.quantity, outcome.minimum),
    movement_ids: outcome.movementId === null ? [] : [outcome.movementId],
  };
}

/** The consumptions of a company sent together, one outcome per request, in order, each request's key claimed and answered with them. */
const consumeTogether = batchedPerTenant(async (tx, tenantId, requests: ConsumeRequest[]): Promise<ConsumeOutcome[]> => {
  const rows = await queryRows<{ outcome: 'used' | 'no_stock_row'; unit_quantity: number | null; threshold: number | null; movement_id: string | null }>(
    tx,
    sql`select outcome, unit_quantity, threshold, movement_id
        from consume_at_units(${tenantId}::uuid, ${pgArray(requests.map((r) => r.unitId))}::uuid[],
          ${pgArray(requests.map((r) => r.itemId))}::uuid[], ${pgArray(requests.map((r) => r.quantity))}::int[],
          ${pgArray(requests.map((r) => r.userId))}::uuid[])
        order by line`,
  );
  return rows.map((r): ConsumeOutcome =>
    r.outcome === 'used'
      ? { kind: 'used', quantity: Number(r.unit_quantity), minimum: Number(r.threshold), movementId: r.movement_id }
      : { kind: 'no_stock_row' },
  );
}, answer);

/**
 * Uses `quantity` (pieces, >= 1) of `itemId` at the unit, floored at what it holds.
 * @returns the quantity after, the row's status, and the movement to undo it (none when nothing was used).
 * With the request's `key`, the key is claimed and answered in the consumption's transaction.
 * @throws 404 'Unit not found' for an unknown unit, 'Stock row not found' for a unit without a stock
 *   row of the item; EarlierRequest for a key sent before (server/lib/idempotency.ts `answerOnce`).
 */
export async function consume(db: Db, who: TenantIdentity, unitId: string, itemId: string, quantity = 1, key?: KeyInWrite): Promise<StockMoveResult> {
  const outcome = await consumeTogether(db, { tenantId: who.tenantId, userId: who.userId, unitId, itemId, quantity, key });
  if (outcome.kind === 'no_stock_row') {
    const [unit] = await withTenant(db, who.tenantId, (tx) =>
      queryRows(tx, sql`select 1 from units where tenant_id = ${who.tenantId} and id = ${unitId}`),
    );
    throw notFound(unit ? 'Stock row' : 'Unit');
  }
  return answer(outcome);
}
