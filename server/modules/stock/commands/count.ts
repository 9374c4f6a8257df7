/**
 * Stocktake (docs/product.md "Screens: Count", docs/decisions/026-stocktake.md): the counted
 * quantities of a unit or a garage become its stock, one `count` movement per row that changed,
 * in one transaction — unless the stock of a counted row moved after it was counted, which refuses
 * the whole count and writes nothing. A count at a unit that finds less is usage. The API's
 * inventory replace of a garage is a stocktake too.
 *
 * A company's counts at units that arrive while one of them is being written go together into the
 * next transaction (stock/batched.ts): one lock statement per step and one write for all, each
 * count accepted or refused as if alone (docs/decisions/038-stock-commands.md).
 */
import { sql } from 'drizzle-orm';
import type { CountBody, CountLine, CountResult } from '../../../../common/contracts/count';
import type { GarageInventoryBody } from '../../../../common/contracts/stock';
import { pgArray, queryRows, type Db, type Tx } from '../../../db/client';
import { withTenant } from '../../../db/tenant-tx';
import { AppError, notFound } from '../../../lib/errors';
import { displayName, peopleByIds } from '../../auth/people';
import type { TenantIdentity } from '../../auth/identity';
import { assertItemsExist } from '../known-items';
import { countStock, removeStockRow, setStock } from '../ledger';
import type { Location } from '../tables';
import { batchedOncePer } from '../batched';
import { recordCounts, type Counter } from '../count-event';
import { stockLocks, type StockLocks } from '../locks';

/** The issue of a line whose stock moved after it was counted: 'Bath Towel is now 3, not 5 as when it was counted'. */
export const countMovedMessage = (itemName: string, now: number, expected: number): string =>
  `${itemName} is now ${now}, not ${expected} as when it was counted`;

/** A count asked for at a location of `kind`: its lines, by `userId` (the ledger's: a person's or an API key's id), named `by` in its webhook event. */
interface CountRequest {
  tenantId: string;
  userId: string;
  by: Counter;
  locationId: string;
  lines: readonly CountLine[];
}

/** What a count gets: the rows it changed, or the refusal it would have had alone. */
type CountOutcome = { result: CountResult } | { refused: AppError };

/**
 * Locks the counted locations — garages FOR NO KEY UPDATE (their stocktakes take turns; units may
 * still be assigned to them), units FOR SHARE (the usage trigger locks them after the stock rows)
 * — then their stock rows of the counted items, each step by one statement in key order.
 * @returns the locations found, and the quantities they hold, by location then item.
 */
async function lockCounted(locks: StockLocks, kind: Location['kind'], requests: readonly CountRequest[]) {
  const ids = requests.map((r) => r.locationId);
  const found = new Set((kind === 'garage' ? await locks.garages(ids, 'no key update') : await locks.units(ids, 'share')).keys());
  const pairs = requests.filter((r) => found.has(r.locationId)).flatMap((r) => r.lines.map((l) => ({ id: r.locationId, itemId: l.item_id })));
  if (kind === 'garage') return { found, held: await locks.garageRowsOf(pairs.map((p) => ({ garageId: p.id, itemId: p.itemId }))) };
  const rows = await locks.unitRowsOf(pairs.map((p) => ({ unitId: p.id, itemId: p.itemId })));
  return { found, held: new Map([...rows].map(([unitId, of]) => [unitId, new Map([...of].map(([itemId, r]) => [itemId, r.quantity]))])) };
}

/**
 * Applies counts at locations of `kind` inside the caller's tenant transaction, each location at
 * most once: compares each locked row with the quantity its line expected (0 for an item the
 * location does not hold), then writes every accepted count by `countStock`.
 * @returns one outcome per request, in order: the rows that changed, ordered by item name (empty
 *   when every line was right); or refused with 404 for an unknown location or an item that is
 *   not the tenant's, or CONFLICT with one issue per line (path ['lines', i, 'expected']) when the
 *   stock of counted items moved since they were counted — nothing of that count is written then.
 */
async function countAtLocations(tx: Tx, tenantId: string, kind: Location['kind'], requests: readonly CountRequest[]): Promise<CountOutcome[]> {
  const locks = stockLocks(tx, tenantId);
  const { found, held } = await lockCounted(locks, kind, requests);
  const ids = [...new Set(requests.flatMap((r) => r.lines.map((l) => l.item_id)))];
  const items = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from items where tenant_id = ${tenantId} and id = any(${pgArray(ids)}::uuid[])`,
  );
  const nameOf = new Map(items.map((i) => [i.id, i.name]));
  const checked = requests.map((r): CountOutcome | null => {
    if (!found.has(r.locationId)) return { refused: notFound(kind === 'unit' ? 'Unit' : 'Garage') };
    if (r.lines.some((l) => !nameOf.has(l.item_id))) return { refused: notFound('Item') };
    const now = held.get(r.locationId) ?? new Map<string, number>();
    const issues = r.lines.flatMap((line, i) => {
      const quantity = now.get(line.item_id) ?? 0;
      return quantity === line.expected ? [] : [{ path: ['lines', i, 'expected'], message: countMovedMessage(nameOf.get(line.item_id)!, quantity, line.expected) }];
    });
    if (issues.length === 0) return null;
    const what = issues.length === 1 ? '1 counted item' : `${issues.length} counted items`;
    return { refused: new AppError('CONFLICT', `The stock of ${what} changed while you counted. Nothing was saved: check and save again.`, issues) };
  });
  const accepted = requests.filter((_, k) => checked[k] === null);
  const changes = await countStock(
    tx,
    locks,
    kind,
    accepted.flatMap((r) => r.lines.map((l) => ({ locationId: r.locationId, itemId: l.item_id, quantity: l.counted, userId: r.userId }))),
    { tenantId, note: 'Stocktake' },
  );
  const outcomes = requests.map((r, k): CountOutcome => {
    const refused = checked[k];
    if (refused) return refused;
    const changed = changes
      .filter((c) => c.locationId === r.locationId)
      .map((c) => ({ item_id: c.itemId, item_name: nameOf.get(c.itemId)!, previous: c.previous, quantity: c.quantity }))
      .sort((a, b) => a.item_name.localeCompare(b.item_name));
    return { result: { changed } };
  });
  await recordCounts(
    tx,
    tenantId,
    kind,
    requests.flatMap((r, k) => {
      const outcome = outcomes[k]!;
      return 'result' in outcome ? [{ locationId: r.locationId, by: r.by, changed: outcome.result.changed }] : [];
    }),
  );
  return outcomes;
}

/**
 * Who a count is recorded as counted by: the request's API key, else its person, named as the
 * Dashboard's activity names them — read before the count's transaction, which cannot read people.
 */
async function counterOf(db: Db, who: TenantIdentity): Promise<Counter> {
  if (who.apiKey) return { apiKeyName: who.apiKey.name };
  const person = (await peopleByIds(db, [who.userId])).get(who.userId);
  return person ? { person: displayName(person) } : null;
}

/** The answer of an outcome. @throws its refusal */
function answer(outcome: CountOutcome): CountResult {
  if ('refused' in outcome) throw outcome.refused;
  return outcome.result;
}

/** A company's counts at units written together, each unit once a batch (stock/batched.ts). */
const countUnitsTogether = batchedOncePer(
  (r: CountRequest) => r.locationId,
  (tx, tenantId, requests) => countAtLocations(tx, tenantId, 'unit', requests),
);

/**
 * Count mode at a unit (members), in a transaction shared with the company's concurrent counts.
 * @returns the rows that changed, ordered by item name (empty when every line was right).
 * @throws 404 for an unknown unit or an item that is not the tenant's; CONFLICT with one issue
 *   per line (path ['lines', i, 'expected']) when the stock of counted items moved since they
 *   were counted — nothing is written then.
 */
export async function countUnit(db: Db, who: TenantIdentity, unitId: string, body: CountBody): Promise<CountResult> {
  return answer(await countUnitsTogether(db, { tenantId: who.tenantId, userId: who.userId, by: await counterOf(db, who), locationId: unitId, lines: body.lines }));
}

/** Count mode at a garage (members), in its own transaction; answers and throws as `countUnit`. */
export async function countGarage(db: Db, who: TenantIdentity, garageId: string, body: CountBody): Promise<CountResult> {
  const request = { tenantId: who.tenantId, userId: who.userId, by: await counterOf(db, who), locationId: garageId, lines: body.lines };
  return answer((await withTenant(db, who.tenantId, (tx) => countAtLocations(tx, who.tenantId, 'garage', [request])))[0]!);
}

/**
 * The API's inventory replace of a garage (no screen since count mode), inside the caller's
 * tenant transaction: the garage's stock becomes exactly `inventory`; changed rows are `count`
 * movements, rows left out (or at 0) are counted to 0 and removed.
 * @throws 404 for an unknown garage or item
 */
export async function replaceGarageStock(tx: Tx, who: TenantIdentity, garageId: string, inventory: GarageInventoryBody['inventory']): Promise<void> {
  const locks = stockLocks(tx, who.tenantId);
  if (!(await locks.garages([garageId], 'no key update')).has(garageId)) throw notFound('Garage');
  await assertItemsExist(tx, who.tenantId, inventory.map((l) => l.item_id));
  const location = { kind: 'garage', id: garageId } as const;
  const meta = { tenantId: who.tenantId, userId: who.userId, note: 'Inventory count' };
  const keep = new Map(inventory.filter((l) => l.quantity > 0).map((l) => [l.item_id, l.quantity]));
  // Every stock row of the garage, locked in key order before any is changed.
  const current = await locks.garageRows(garageId, 'all');
  for (const itemId of current.keys()) {
    if (!keep.has(itemId)) await removeStockRow(tx, location, itemId, meta);
  }
  for (const [itemId, quantity] of [...keep].sort(([a], [b]) => a.localeCompare(b))) {
    await setStock(tx, location, itemId, quantity, meta);
  }
}
