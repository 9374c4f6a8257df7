/**
 * The stock commands the web sends, as benchmark loads on the large tenant (docs/performance.md
 * "Budgets"; how they came to be, docs/performance-history.md "Stock commands: the requests the
 * web sends"): what each request carries and which rows it
 * names, chosen from the generated data so that every request can be answered 200, and the
 * ledger rows each load wrote. Quantities are pieces.
 *
 * - the plus taps sent together: POST /api/units/:id/inventory/:itemId/transfer { quantity };
 * - the minus taps sent together: POST /api/units/:id/inventory/:itemId/consume { quantity };
 * - a count of COUNT_ROWS rows at a unit: POST /api/units/:id/count { lines };
 * - Restock to minimum of a whole unit: POST /api/units/:id/restock-to-minimum {};
 * - Mark as delivered of a pick list's property: POST /api/units/:id/pick-list/deliver { lines }.
 */
import type pg from 'pg';
import type { AlternatingTarget, BenchRequest } from './load';

/** Garage stock, in pieces, a garage row must hold for a transfer or a delivery line to name it. */
export const MIN_GARAGE_STOCK = 1000;
/** Unit/item pairs the plus and minus loads spread over (no single hot row). */
export const STOCK_PAIRS = 5000;
/** Pieces of one plus or minus request: 1, 2 or 3 quick taps sent together. */
export const TAP_QUANTITIES = [1, 2, 3];
/** Units the count load counts, each again and again (its rows counted back and forth). */
export const COUNTED_UNITS = 200;
/** Rows of one count: as many as the demo operator's garage counted on a phone. */
export const COUNT_ROWS = 31;
/** Rows of a count found different, by how much: two one more, one two fewer (two more when it holds less). */
const COUNT_DIFFERENCES = [1, 1, -2];
/** Lines of one pick-list delivery, and the pieces of each line (1–4). */
export const DELIVERY_LINES = 20;
const DELIVERY_QUANTITIES = [1, 2, 3, 4];
/** Different deliveries prepared (a unit and its lines each); each request sends one at random. */
export const DELIVERIES = 2000;
/** Concurrent GET /api/units/:id while the count load reads the units' stock. */
const READ_CONCURRENCY = 8;

const pickOne = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** `count` elements of `list` at random, without repeats (a partial Fisher–Yates shuffle). */
function sample<T>(list: T[], count: number): T[] {
  const copy = [...list];
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/** A unit stock row: the unit and the item. */
export interface StockPair {
  unit_id: string;
  item_id: string;
}

/**
 * STOCK_PAIRS unit stock rows of the tenant at random, each of an item its unit's garage holds at
 * least MIN_GARAGE_STOCK of, so every transfer of the run can be answered 200.
 */
export async function stockPairs(client: pg.Client, tenantId: string): Promise<StockPair[]> {
  const { rows } = await client.query<StockPair>(
    `select s.unit_id, s.item_id
     from unit_inventory s
     join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
     join garage_inventory g on g.tenant_id = s.tenant_id and g.garage_id = u.garage_id and g.item_id = s.item_id
     where s.tenant_id = $1 and g.quantity >= $2
     order by random() limit $3`,
    [tenantId, MIN_GARAGE_STOCK, STOCK_PAIRS],
  );
  return rows;
}

/**
 * The plus (`transfer`) or minus (`consume`) requests of the web over `pairs`: every pair with
 * every quantity of TAP_QUANTITIES, to be sent at random.
 */
export function tapRequests(pairs: StockPair[], command: 'transfer' | 'consume'): BenchRequest[] {
  return pairs.flatMap((p) =>
    TAP_QUANTITIES.map((quantity) => ({ path: `/api/units/${p.unit_id}/inventory/${p.item_id}/${command}`, body: JSON.stringify({ quantity }) })),
  );
}

/** One row of GET /api/units/:id's answer, as far as the count needs it. */
interface UnitRow {
  item_id: string;
  quantity: number;
}

/**
 * The two counts of one unit that undo each other: COUNT_ROWS of its rows at random, of which
 * the first COUNT_DIFFERENCES.length found different. The first count expects the stock read
 * and finds the changed quantities; the second expects those and finds the stock read again.
 */
function countBodies(rows: UnitRow[]): [string, string] {
  const counted = sample(rows, COUNT_ROWS).map((row, i) => {
    const difference = COUNT_DIFFERENCES[i] ?? 0;
    // Never below 0: a row holding less than it would lose is found with more instead.
    const changed = row.quantity + (row.quantity + difference < 0 ? -difference : difference);
    return { item_id: row.item_id, read: row.quantity, changed };
  });
  const body = (from: 'read' | 'changed', to: 'read' | 'changed') =>
    JSON.stringify({ lines: counted.map((l) => ({ item_id: l.item_id, expected: l[from], counted: l[to] })) });
  return [body('read', 'changed'), body('changed', 'read')];
}

/**
 * The count load's targets: COUNTED_UNITS units of the tenant at random, each with its two
 * counts built from its stock as GET /api/units/:id answers it now (a count whose `expected`
 * differs from the stock is refused with 409).
 * @throws Error when a unit cannot be read or holds fewer than COUNT_ROWS rows.
 */
export async function countTargets(client: pg.Client, tenantId: string, url: string, cookie: string): Promise<AlternatingTarget[]> {
  const { rows: units } = await client.query<{ id: string }>('select id from units where tenant_id = $1 order by random() limit $2', [tenantId, COUNTED_UNITS]);
  const targets: AlternatingTarget[] = [];
  for (let i = 0; i < units.length; i += READ_CONCURRENCY) {
    const batch = units.slice(i, i + READ_CONCURRENCY);
    targets.push(
      ...(await Promise.all(
        batch.map(async ({ id }) => {
          const res = await fetch(`${url}/api/units/${id}`, { headers: { cookie } });
          if (res.status !== 200) throw new Error(`GET /api/units/${id}: ${res.status} ${await res.text()}`);
          const { inventory } = (await res.json()) as { inventory: UnitRow[] };
          if (inventory.length < COUNT_ROWS) throw new Error(`unit ${id} holds ${inventory.length} rows, fewer than the ${COUNT_ROWS} a count needs`);
          return { path: `/api/units/${id}/count`, bodies: countBodies(inventory) };
        }),
      )),
    );
  }
  return targets;
}

/** What Restock to minimum has to do on the tenant: units with a row it can fill, and those rows. */
export interface BelowMinimum {
  /** Units with at least one row below minimum whose garage holds some of the item, in random order. */
  unitIds: string[];
  /** Rows below their item's minimum threshold, in all. */
  rows: number;
  /** Of those, rows the unit's garage holds some of the item for. */
  fillableRows: number;
}

/** Reads what Restock to minimum would fill on the tenant now. */
export async function belowMinimum(client: pg.Client, tenantId: string): Promise<BelowMinimum> {
  const { rows } = await client.query<{ unit_id: string; rows: number; fillable: number }>(
    `select s.unit_id, count(*)::int as rows, count(*) filter (where g.quantity > 0)::int as fillable
     from unit_inventory s
     join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
     left join garage_inventory g on g.tenant_id = s.tenant_id and g.garage_id = u.garage_id and g.item_id = s.item_id
     where s.tenant_id = $1 and s.quantity < s.item_threshold
     group by s.unit_id
     order by random()`,
    [tenantId],
  );
  return {
    unitIds: rows.filter((r) => r.fillable > 0).map((r) => r.unit_id),
    rows: rows.reduce((n, r) => n + r.rows, 0),
    fillableRows: rows.reduce((n, r) => n + r.fillable, 0),
  };
}

/** "Restock to minimum" of each of `unitIds`, the whole unit (the web's body `{}`), in order. */
export function restockToMinimumRequests(unitIds: string[]): BenchRequest[] {
  return unitIds.map((id) => ({ path: `/api/units/${id}/restock-to-minimum`, body: '{}' }));
}

/**
 * DELIVERIES pick-list deliveries ("Mark as delivered" of one property): each a unit of the
 * tenant at random and DELIVERY_LINES lines, items the unit has a stock row of and its garage
 * holds at least MIN_GARAGE_STOCK of, 1–4 pieces each.
 * @throws Error when no unit has that many such items.
 */
export async function deliveryRequests(client: pg.Client, tenantId: string): Promise<BenchRequest[]> {
  const { rows } = await client.query<{ unit_id: string; item_ids: string[] }>(
    `select s.unit_id, array_agg(s.item_id) as item_ids
     from unit_inventory s
     join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
     join garage_inventory g on g.tenant_id = s.tenant_id and g.garage_id = u.garage_id and g.item_id = s.item_id
     where s.tenant_id = $1 and g.quantity >= $2
     group by s.unit_id
     having count(*) >= $3`,
    [tenantId, MIN_GARAGE_STOCK, DELIVERY_LINES],
  );
  if (rows.length === 0) throw new Error(`no unit has ${DELIVERY_LINES} items its garage holds ${MIN_GARAGE_STOCK} of`);
  return Array.from({ length: DELIVERIES }, () => {
    const unit = pickOne(rows);
    const lines = sample(unit.item_ids, DELIVERY_LINES).map((item_id) => ({ item_id, quantity: pickOne(DELIVERY_QUANTITIES) }));
    return { path: `/api/units/${unit.unit_id}/pick-list/deliver`, body: JSON.stringify({ lines }) };
  });
}

/** The database's clock now: ledger rows written after it are the next load's. */
export async function databaseNow(client: pg.Client): Promise<Date> {
  const { rows } = await client.query<{ now: Date }>('select clock_timestamp() as now');
  return rows[0]!.now;
}

/** Ledger rows written at the tenant's units since a moment, by type. */
export interface UnitLedger {
  /** Ledger rows at units (one per stock row changed by a request). */
  rows: number;
  /** Their quantity changes added up (pieces; negative when more was used than brought). */
  pieces: number;
  /** Rows by ledger type (restock, consumption, count…). */
  byType: Record<string, number>;
}

/** The ledger rows written at the tenant's units since `since` (databaseNow before a load). */
export async function unitLedgerSince(client: pg.Client, tenantId: string, since: Date): Promise<UnitLedger> {
  const { rows } = await client.query<{ type: string; rows: number; pieces: number }>(
    `select type, count(*)::int as rows, coalesce(sum(quantity_change), 0)::int as pieces
     from inventory_logs where tenant_id = $1 and created_at >= $2 and source_type = 'unit'
     group by type order by type`,
    [tenantId, since],
  );
  return {
    rows: rows.reduce((n, r) => n + r.rows, 0),
    pieces: rows.reduce((n, r) => n + r.pieces, 0),
    byType: Object.fromEntries(rows.map((r) => [r.type, r.rows])),
  };
}
