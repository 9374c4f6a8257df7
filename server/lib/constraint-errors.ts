/**
 * Database constraint violations that are the user's to fix, as the AppError the API answers
 * (docs/decisions/011-input-limits.md). The database enforces what a request cannot check alone,
 * such as a stock row's maximum, which depends on the stock already there; its error names the
 * constraint, and this module turns the ones it knows into a clear message. The transaction that
 * hit the constraint has failed, so nothing it wrote remains.
 */
import { grouped, MAX_STOCK_QUANTITY } from '../../common/contracts/fields';
import type { ErrorCode } from '../../common/errors';
import { databaseErrorOf } from '../db/sql-state';
import { AppError } from './errors';

/** PostgreSQL's check_violation (manual, appendix A "PostgreSQL Error Codes"). */
const CHECK_VIOLATION = '23514';

const STOCK_MAX_MESSAGE = `A location can hold at most ${grouped(MAX_STOCK_QUANTITY)} of an item. Nothing was changed.`;

/**
 * The CHECK constraints a valid request can break, with what the user is told. (The item cost
 * maximum, items_count_cost_max, is refused by the contract first: breaking it is a bug, a 500.)
 */
const CHECKS: Record<string, { code: ErrorCode; message: string }> = {
  unit_inventory_quantity_max: { code: 'CONFLICT', message: STOCK_MAX_MESSAGE },
  garage_inventory_quantity_max: { code: 'CONFLICT', message: STOCK_MAX_MESSAGE },
};

/**
 * The AppError for `err` when it is (or wraps, as drizzle's DrizzleQueryError wraps the `pg` or
 * PGlite error in `cause`) the violation of a constraint listed above; otherwise null, and the
 * caller handles `err` as before. Meant for the error handler, before the 500 fallback.
 */
export function constraintError(err: unknown): AppError | null {
  const found = databaseErrorOf(err);
  if (found?.code !== CHECK_VIOLATION || !found.constraint) return null;
  const known = CHECKS[found.constraint];
  return known ? new AppError(known.code, known.message) : null;
}
