/**
 * The database's own error inside whatever wraps it: `pg` and PGlite set the SQLSTATE in `code`
 * (and the constraint's name in `constraint`), and drizzle wraps that error as the `cause` of its
 * own (PostgreSQL's error codes, appendix A of its manual).
 */

/** The SQLSTATE and, for a constraint violation, the constraint of a database error. */
export interface DatabaseError {
  code: string;
  constraint?: string;
}

/** The first error of `err`'s cause chain that carries a SQLSTATE, or undefined. */
export function databaseErrorOf(err: unknown): DatabaseError | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return typeof constraint === 'string' ? { code, constraint } : { code };
    }
  }
  return undefined;
}

/** The SQLSTATE of a database error, wherever the driver put it. */
export function sqlStateOf(err: unknown): string | undefined {
  return databaseErrorOf(err)?.code;
}
