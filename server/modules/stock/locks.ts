/**
 * The one way a stock command takes its row locks (docs/decisions/009-ledger-lock-order.md,
 * docs/decisions/038-stock-commands.md). Every lock statement on stock data in the server is in
 * this module: commands, and the modules that create, assign or delete locations, open a
 * `StockLocks` on their tenant transaction and take its steps in the lock order —
 *
 * 1. the command's own record (a scan being applied: a second apply waits for the first);
 * 2. garages, key ascending;
 * 3. units, key ascending;
 * 4. unit stock rows (one unit at a time, units in key order; items in key order);
 * 5. garage stock rows (likewise);
 * 6. every stock row of some items, unit rows then garage rows (before an item's threshold
 *    change or deletion, whose ON UPDATE / ON DELETE CASCADE would otherwise lock them in no
 *    particular order while holding the item);
 * 7. items, key ascending.
 *
 * A step may be skipped but never taken after a later one, nor for a lower key than the same
 * step's last: `LockOrderError` then, before any statement runs, so a command written out of order
 * fails its first test instead of deadlocking under load. Each step is its own statement
 * (`… ORDER BY key FOR …`) before the statement that writes, so the write reads the latest
 * quantities of rows that are already its own. The transfer (`transfer_to_units`, migrations 0013
 * and 0027) locks inside the database in the same order — units one by one in key order, then its
 * unit stock rows and its garage stock rows each by one statement in key order; a command may call
 * it after these steps.
 */
import { sql, type SQL } from 'drizzle-orm';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { ConcurrentChange } from '../../db/tenant-tx';
import { tableOf } from './tables';
import { belowMinimumSql } from './rules';

/** PostgreSQL's row-lock strengths, weakest first. */
export type RowLockMode = 'key share' | 'share' | 'no key update' | 'update';

/** Thrown when a step is taken out of decision 009's order: a bug in the command, never the user's. */
export class LockOrderError extends Error {
  override name = 'LockOrderError';
}

const STEPS = ['record', 'garages', 'units', 'unitRows', 'garageRows', 'itemRows', 'items'] as const;
type Step = (typeof STEPS)[number];

/** Which stock rows of one location to lock: the given items, every row, or (units) the rows below their item's minimum. */
export type RowsWanted = { items: readonly string[] } | 'all';

/** A unit stock row as locked: its quantity and its item's minimum threshold (the row's copy, migration 0004). */
export interface LockedUnitRow {
  quantity: number;
  minimum: number;
}

const modeSql = (mode: RowLockMode): SQL => sql.raw(`for ${mode}`);
const sortedUnique = (ids: readonly string[]) => [...new Set(ids)].sort();

/**
 * The locks of one tenant transaction, taken in the lock order. Create one per transaction with
 * `stockLocks`; its methods return what they read under the lock.
 */
export class StockLocks {
  private reached = -1;
  private lastKey = '';

  constructor(
    private readonly tx: Tx,
    private readonly tenantId: string,
  ) {}

  /** Records step `step` for key `key`, refusing one that goes back. @throws LockOrderError */
  private advance(step: Step, key: string): void {
    const k = STEPS.indexOf(step);
    if (k < this.reached || (k === this.reached && key < this.lastKey)) {
      const was = `${STEPS[this.reached]}${this.lastKey ? ` ${this.lastKey}` : ''}`;
      throw new LockOrderError(`lock order: ${step}${key ? ` ${key}` : ''} after ${was} (docs/decisions/009-ledger-lock-order.md)`);
    }
    if (k > this.reached) this.lastKey = '';
    this.reached = k;
    if (key > this.lastKey) this.lastKey = key;
  }

  /** Records step `step` for the keys `ids`, taken in key order. @returns the keys, sorted and unique. @throws LockOrderError */
  private advanceOver(step: Step, ids: readonly string[]): string[] {
    const keys = sortedUnique(ids);
    this.advance(step, keys[0] ?? '');
    this.lastKey = keys.at(-1) ?? this.lastKey;
    return keys;
  }

  /**
   * Step 1: a scan being applied, FOR UPDATE (applies of one scan take turns).
   * @returns its unit (null for a storage scan), the item ids it detected and whether it was applied; undefined when not found.
   */
  async scan(scanId: string): Promise<{ unitId: string | null; detected: string[]; applied: boolean } | undefined> {
    this.advance('record', scanId);
    const [row] = await queryRows<{ unit_id: string | null; detections: { item_id: string }[]; applied: boolean }>(
      this.tx,
      sql`select unit_id, detections, applied_at is not null as applied from scans
          where tenant_id = ${this.tenantId} and id = ${scanId} for update`,
    );
    return row && { unitId: row.unit_id, detected: row.detections.map((d) => d.item_id), applied: row.applied };
  }

  /**
   * Step 2: garages, in key order: `key share` to assign a unit to one or to give stock back to it
   * (it cannot be deleted meanwhile), `no key update` to count its stock, `update` to delete it.
   * @returns the garages found, by id, with their names (an unknown id is absent).
   */
  async garages(ids: readonly string[], mode: RowLockMode): Promise<Map<string, { name: string }>> {
    const keys = this.advanceOver('garages', ids);
    if (keys.length === 0) return new Map();
    const rows = await queryRows<{ id: string; name: string }>(
      this.tx,
      sql`select id, name from garages where tenant_id = ${this.tenantId} and id = any(${pgArray(keys)}::uuid[])
          order by id ${modeSql(mode)}`,
    );
    return new Map(rows.map((r) => [r.id, { name: r.name }]));
  }

  /**
   * Step 3: units, in key order: `share` to change their stock (their garage stays, they are not
   * deleted meanwhile), `update` to change or delete them, to remove one of their stock rows or
   * to undo (changes of the unit's stock take turns with it).
   * @returns the units found, by id, with their garage as of the lock (an unknown id is absent).
   */
  async units(ids: readonly string[], mode: RowLockMode): Promise<Map<string, { garageId: string | null }>> {
    const keys = this.advanceOver('units', ids);
    if (keys.length === 0) return new Map();
    const rows = await queryRows<{ id: string; garage_id: string | null }>(
      this.tx,
      sql`select id, garage_id from units where tenant_id = ${this.tenantId} and id = any(${pgArray(keys)}::uuid[])
          order by id ${modeSql(mode)}`,
    );
    return new Map(rows.map((r) => [r.id, { garageId: r.garage_id }]));
  }

  /**
   * Step 4: stock rows of one unit FOR UPDATE, in item order: those of `wanted`, or those below
   * their item's minimum threshold (`'belowMinimum'`, what "Restock to minimum" fills).
   * @returns the rows found, by item id.
   */
  async unitRows(unitId: string, wanted: RowsWanted | 'belowMinimum'): Promise<Map<string, LockedUnitRow>> {
    this.advance('unitRows', unitId);
    const which =
      wanted === 'all'
        ? sql``
        : wanted === 'belowMinimum'
          ? sql`and ${belowMinimumSql(sql`quantity`, sql`item_threshold`)}`
          : sql`and item_id = any(${pgArray(sortedUnique(wanted.items))}::uuid[])`;
    const rows = await queryRows<{ item_id: string; quantity: number; minimum: number }>(
      this.tx,
      sql`select item_id, quantity, item_threshold as minimum from unit_inventory
          where tenant_id = ${this.tenantId} and unit_id = ${unitId} ${which}
          order by item_id for update`,
    );
    return new Map(rows.map((r) => [r.item_id, { quantity: Number(r.quantity), minimum: Number(r.minimum) }]));
  }

  /**
   * Step 4 for several units by one statement, units in key order and each unit's rows in item
   * order (a company's concurrent counts or Restock to minimum): for each entry, the unit's row of
   * `itemId`, or without one the unit's rows below their item's minimum threshold.
   * @returns the rows found, by unit id, then by item id (a unit without any is absent).
   */
  async unitRowsOf(wanted: readonly { unitId: string; itemId?: string }[]): Promise<Map<string, Map<string, LockedUnitRow>>> {
    this.advanceOver('unitRows', wanted.map((w) => w.unitId));
    const pairs = wanted.filter((w) => w.itemId !== undefined);
    const whole = wanted.filter((w) => w.itemId === undefined).map((w) => w.unitId);
    const rows = await queryRows<{ unit_id: string; item_id: string; quantity: number; minimum: number }>(
      this.tx,
      // Two lookups joined by their ids: one statement with `or` between the two was planned as a
      // scan of every stock row of the company (17 ms at 1,000 units), this one as index scans (0.6 ms).
      sql`select s.unit_id, s.item_id, s.quantity, s.item_threshold as minimum from unit_inventory s
          where s.tenant_id = ${this.tenantId}
            and s.id in (
              select p.id from unit_inventory p
              where p.tenant_id = ${this.tenantId}
                and (p.unit_id, p.item_id) in (select * from unnest(${pgArray(pairs.map((w) => w.unitId))}::uuid[], ${pgArray(pairs.map((w) => w.itemId!))}::uuid[]))
              union all
              select w.id from unit_inventory w
              where w.tenant_id = ${this.tenantId} and w.unit_id = any(${pgArray(whole)}::uuid[])
                and ${belowMinimumSql(sql`w.quantity`, sql`w.item_threshold`)})
          order by s.unit_id, s.item_id for update of s`,
    );
    const byUnit = new Map<string, Map<string, LockedUnitRow>>();
    for (const r of rows) {
      const of = byUnit.get(r.unit_id) ?? new Map<string, LockedUnitRow>();
      byUnit.set(r.unit_id, of.set(r.item_id, { quantity: Number(r.quantity), minimum: Number(r.minimum) }));
    }
    return byUnit;
  }

  /**
   * Step 5: stock rows of one garage FOR UPDATE, in item order: those of `wanted`, or every row
   * (empty ones too, before the garage's stock is replaced or the garage deleted).
   * @returns the quantities found, by item id.
   */
  async garageRows(garageId: string, wanted: RowsWanted): Promise<Map<string, number>> {
    if (wanted !== 'all') return (await this.garageRowsOf(wanted.items.map((itemId) => ({ garageId, itemId })))).get(garageId) ?? new Map();
    this.advance('garageRows', garageId);
    const rows = await queryRows<{ item_id: string; quantity: number }>(
      this.tx,
      sql`select item_id, quantity from garage_inventory
          where tenant_id = ${this.tenantId} and garage_id = ${garageId}
          order by item_id for update`,
    );
    return new Map(rows.map((r) => [r.item_id, Number(r.quantity)]));
  }

  /**
   * Step 5 for several garages by one statement, garages in key order and each garage's rows in
   * item order: the rows of the (garage, item) pairs `wanted`.
   * @returns the quantities found, by garage id, then by item id (a garage without any is absent).
   */
  async garageRowsOf(wanted: readonly { garageId: string; itemId: string }[]): Promise<Map<string, Map<string, number>>> {
    this.advanceOver('garageRows', wanted.map((w) => w.garageId));
    const rows = await queryRows<{ garage_id: string; item_id: string; quantity: number }>(
      this.tx,
      sql`select g.garage_id, g.item_id, g.quantity from garage_inventory g
          where g.tenant_id = ${this.tenantId}
            and (g.garage_id, g.item_id) in (select * from unnest(${pgArray(wanted.map((w) => w.garageId))}::uuid[], ${pgArray(wanted.map((w) => w.itemId))}::uuid[]))
          order by g.garage_id, g.item_id for update of g`,
    );
    const byGarage = new Map<string, Map<string, number>>();
    for (const r of rows) byGarage.set(r.garage_id, (byGarage.get(r.garage_id) ?? new Map<string, number>()).set(r.item_id, Number(r.quantity)));
    return byGarage;
  }

  /**
   * After steps 4–5, the stock rows of `pairs` at locations of `kind` that were opened since they
   * were taken (another transaction created a row the step did not find, before the caller's own
   * insert of the missing ones): taken now without waiting, since waiting for one while holding
   * rows of higher keys could close a cycle with a transaction that locks in order. Rows this
   * transaction holds already count as taken.
   * @throws ConcurrentChange when one is held by another transaction (the transaction runs again).
   */
  async rowsOpenedSince(kind: 'unit' | 'garage', pairs: readonly { locationId: string; itemId: string }[]): Promise<void> {
    if (pairs.length === 0) return;
    const { table, column } = tableOf(kind);
    const of = sql`where s.tenant_id = ${this.tenantId}
      and (s.${column}, s.item_id) in (select * from unnest(${pgArray(pairs.map((p) => p.locationId))}::uuid[], ${pgArray(pairs.map((p) => p.itemId))}::uuid[]))`;
    const [count] = await queryRows<{ missing: number }>(
      this.tx,
      sql`select (select count(*) from ${table} s ${of})
               - (select count(*) from (select 1 from ${table} s ${of} for update of s skip locked) l) as missing`,
    );
    if (Number(count!.missing) > 0) throw new ConcurrentChange(`a ${kind} stock row being counted was opened and locked meanwhile`);
  }

  /**
   * Step 6: every stock row of `itemIds` at every location, unit rows then garage rows, each in
   * key order: before the items' minimum thresholds change or the items are deleted.
   * @throws ConcurrentChange when a row opened since is held by another transaction (the
   *   transaction runs again).
   */
  async itemRows(itemIds: readonly string[]): Promise<void> {
    const keys = this.advanceOver('itemRows', itemIds);
    if (keys.length === 0) return;
    const items = pgArray(keys);
    const of = sql`where tenant_id = ${this.tenantId} and item_id = any(${items}::uuid[])`;
    await this.tx.execute(sql`select 1 from unit_inventory ${of} order by unit_id, item_id for update`);
    await this.tx.execute(sql`select 1 from garage_inventory ${of} order by garage_id, item_id for update`);
    // A row opened and locked by another transaction since would be reached by the items' cascade
    // after rows this one holds, against the lock order: the transaction runs again then. Rows
    // opened since that nobody holds are taken now, without waiting.
    const [count] = await queryRows<{ missing: number }>(
      this.tx,
      sql`select (select count(*) from unit_inventory ${of}) + (select count(*) from garage_inventory ${of})
               - (select count(*) from (select 1 from unit_inventory ${of} for update skip locked) u)
               - (select count(*) from (select 1 from garage_inventory ${of} for update skip locked) g) as missing`,
    );
    if (Number(count!.missing) > 0) throw new ConcurrentChange(`a stock row of items ${keys.join(', ')} was opened and locked meanwhile`);
  }

  /**
   * Step 7: items, in key order (`update` to delete one, after step 6 locked its stock rows).
   * @returns the ids found.
   */
  async items(ids: readonly string[], mode: RowLockMode): Promise<Set<string>> {
    const keys = this.advanceOver('items', ids);
    if (keys.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      this.tx,
      sql`select id from items where tenant_id = ${this.tenantId} and id = any(${pgArray(keys)}::uuid[]) order by id ${modeSql(mode)}`,
    );
    return new Set(rows.map((r) => r.id));
  }
}

/** Opens the lock steps of a tenant transaction (see the module comment). */
export const stockLocks = (tx: Tx, tenantId: string): StockLocks => new StockLocks(tx, tenantId);
