/**
 * The stock tables by location: a unit's stock rows are `unit_inventory` (by `unit_id`), a
 * garage's `garage_inventory` (by `garage_id`). Read by the ledger primitives and the row locks.
 */
import { sql } from 'drizzle-orm';

/** A stock location: a unit (property) or a garage (storage). */
export type Location = { kind: 'unit'; id: string } | { kind: 'garage'; id: string };

/** The stock table of locations of `kind`, and its location column. */
export function tableOf(kind: Location['kind']) {
  return kind === 'unit'
    ? { table: sql.raw('unit_inventory'), column: sql.raw('unit_id') }
    : { table: sql.raw('garage_inventory'), column: sql.raw('garage_id') };
}
