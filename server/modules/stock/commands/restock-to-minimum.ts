/**
 * "Restock to minimum" (docs/product.md "Stock movements and statuses"): every stock row of a
 * unit below its item's minimum threshold — or only the row of one item — gets what it lacks
 * (minimum − quantity) from the unit's garage, as much of it as the garage holds, in one
 * transaction and one `restock` transfer. Setup fills its new properties by the same rule
 * (docs/decisions/027-first-day-setup.md).
 *
 * A company's requests that arrive while one of its Restock to minimum is being written go
 * together into the next one (stock/batched.ts): one transaction, one lock statement per step
 * and one transfer for all their units, each request answered as if alone in arrival order
 * (docs/decisions/038-stock-commands.md).
 */
import { sql } from 'drizzle-orm';
import { isBelowMinimum, type RestockToMinimumResult } from '../../../../common/contracts/stock';
import { pgArray, queryRows, type Db, type Tx } from '../../../db/client';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantIdentity } from '../../auth/identity';
import type { KeyInWrite } from '../../../lib/idempotency-store';
import { batchedOncePer, type KeyedRequest } from '../batched';
import { stockLocks, type LockedUnitRow } from '../locks';
import { noGarage } from '../refusals';
import { transferToUnits } from '../transfer';

/** One Restock to minimum asked for: the whole unit, or only its row of `itemId`, with its request's key. */
interface FillRequest extends KeyedRequest {
  userId: string;
  unitId: string;
  itemId?: string;
}

/** What a request gets: its answer, or the refusal it would have had alone. */
type FillOutcome = { result: RestockToMinimumResult } | { refused: AppError };

/** A row to fill: what it lacks, and what the garage gives it. */
interface Wanted {
  itemId: string;
  wanted: number;
  quantity: number;
}

const nothingToFill = (): RestockToMinimumResult => ({ moved: [], short: [], movement_ids: [] });

/**
 * The rule for `requests` of one company inside its tenant transaction, each unit at most once
 * (stock/batched.ts `batchedOncePer`). The rows are locked and read first, in the lock order
 * (the units, then their stock rows, then the garage rows, each step by one statement), so the quantities
 * asked for are computed from the latest values and nothing can change them before the transfer
 * moves them; a garage's row is shared among the requests in their order. A line the transfer
 * still refuses is reported as not covered.
 * @returns one outcome per request, in order: what moved and what the garage could not cover, by
 *   item name, with the ledger rows to undo it (nothing to fill: empty lists); refused with 404
 *   for an unknown unit, or a unit without a stock row of `itemId`, or with CONFLICT 'No garage
 *   assigned to this unit' when a row is to be filled.
 */
async function fillUnits(tx: Tx, tenantId: string, requests: readonly FillRequest[]): Promise<FillOutcome[]> {
  const locks = stockLocks(tx, tenantId);
  const units = await locks.units(requests.map((r) => r.unitId), 'share');
  // One row asked for is locked whatever its quantity, to tell a missing row (404) from a full one.
  const rowsOf = await locks.unitRowsOf(requests.filter((r) => units.has(r.unitId)).map((r) => ({ unitId: r.unitId, itemId: r.itemId })));
  const outcomes: (FillOutcome | Wanted[])[] = requests.map((r) => {
    const unit = units.get(r.unitId);
    if (!unit) return { refused: notFound('Unit') };
    const rows = rowsOf.get(r.unitId) ?? new Map<string, LockedUnitRow>();
    if (r.itemId && rows.size === 0) return { refused: notFound('Stock row') };
    const low = [...rows].filter(([, row]) => isBelowMinimum(row.quantity, row.minimum));
    if (low.length === 0) return { result: nothingToFill() };
    if (unit.garageId === null) return { refused: noGarage() };
    return low.map(([itemId, row]) => ({ itemId, wanted: row.minimum - row.quantity, quantity: 0 }));
  });
  const garageOf = (k: number) => units.get(requests[k]!.unitId)!.garageId!;
  const itemsOfGarage = new Map<string, Set<string>>();
  outcomes.forEach((o, k) => {
    if (!Array.isArray(o)) return;
    const items = itemsOfGarage.get(garageOf(k)) ?? new Set<string>();
    for (const w of o) items.add(w.itemId);
    itemsOfGarage.set(garageOf(k), items);
  });
  const locked = await locks.garageRowsOf([...itemsOfGarage].flatMap(([garageId, items]) => [...items].map((itemId) => ({ garageId, itemId }))));
  const held = new Map<string, number>([...locked].flatMap(([garageId, rows]) => [...rows].map(([itemId, quantity]): [string, number] => [`${garageId}|${itemId}`, quantity])));
  // The garage's stock goes to the requests in their order, as if each came alone.
  const lines: { k: number; wanted: Wanted }[] = [];
  outcomes.forEach((o, k) => {
    if (!Array.isArray(o)) return;
    for (const w of o) {
      const key = `${garageOf(k)}|${w.itemId}`;
      w.quantity = Math.min(w.wanted, held.get(key) ?? 0);
      held.set(key, (held.get(key) ?? 0) - w.quantity);
      if (w.quantity > 0) lines.push({ k, wanted: w });
    }
  });
  const moved = lines.length === 0
    ? []
    : await transferToUnits(tx, tenantId, lines.map(({ k, wanted }) => ({ unitId: requests[k]!.unitId, itemId: wanted.itemId, quantity: wanted.quantity, userId: requests[k]!.userId })), { type: 'restock' });
  const movementOf = new Map(lines.map((l, n) => [l.wanted, moved[n]!]));
  const nameOf = await itemNames(tx, tenantId, [...new Set([...itemsOfGarage.values()].flatMap((items) => [...items]))]);
  return outcomes.map((o) => {
    if (!Array.isArray(o)) return o;
    const result = nothingToFill();
    const named = o.map((w) => ({ w, name: nameOf.get(w.itemId)! })).sort((a, b) => a.name.localeCompare(b.name));
    for (const { w, name } of named) {
      const outcome = movementOf.get(w);
      const got = outcome?.kind === 'moved' ? w.quantity : 0;
      if (outcome?.kind === 'moved') result.movement_ids.push(outcome.movementId);
      if (got > 0) result.moved.push({ item_id: w.itemId, item_name: name, quantity: got });
      if (got < w.wanted) result.short.push({ item_id: w.itemId, item_name: name, missing: w.wanted - got });
    }
    return { result };
  });
}

/** The names of `itemIds`, by id. */
async function itemNames(tx: Tx, tenantId: string, itemIds: string[]): Promise<Map<string, string>> {
  if (itemIds.length === 0) return new Map();
  const rows = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from items where tenant_id = ${tenantId} and id = any(${pgArray(itemIds)}::uuid[])`,
  );
  return new Map(rows.map((i) => [i.id, i.name]));
}

/** The answer of an outcome. @throws its refusal */
function answer(outcome: FillOutcome): RestockToMinimumResult {
  if ('refused' in outcome) throw outcome.refused;
  return outcome.result;
}

/**
 * The rule for one unit (or one of its rows) inside the caller's tenant transaction.
 * @returns what moved and what the garage could not cover, by item name, and the ledger rows to
 *   undo it; nothing to fill answers empty lists.
 * @throws 404 for an unknown unit, or a unit without a stock row of `itemId`;
 *   CONFLICT 'No garage assigned to this unit' when a row is to be filled.
 */
export async function fillUnitToMinimum(tx: Tx, who: TenantIdentity, unitId: string, itemId?: string): Promise<RestockToMinimumResult> {
  return answer((await fillUnits(tx, who.tenantId, [{ tenantId: who.tenantId, userId: who.userId, unitId, itemId }]))[0]!);
}

/** The requests of a company written together, each unit once a batch (stock/batched.ts), each request's key claimed and answered with them. */
const fillTogether = batchedOncePer((r: FillRequest) => r.unitId, fillUnits, answer);

/**
 * "Restock to minimum" of a unit (or one of its rows) in a transaction shared with the company's
 * concurrent ones; with the request's `key`, the key is claimed and answered in that transaction.
 * Answers and throws as `fillUnitToMinimum`, and EarlierRequest for a key sent before
 * (server/lib/idempotency.ts `answerOnce` answers it).
 */
export async function restockToMinimum(db: Db, who: TenantIdentity, unitId: string, itemId?: string, key?: KeyInWrite): Promise<RestockToMinimumResult> {
  return answer(await fillTogether(db, { tenantId: who.tenantId, userId: who.userId, unitId, itemId, key }));
}
