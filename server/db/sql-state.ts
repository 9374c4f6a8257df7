/**
 * The SQLSTATE of a database error, wherever the driver put it: `pg` and PGlite set `code` on
 * their error, and drizzle wraps that error as the `cause` of its own (PostgreSQL's error codes,
 * appendix A of its manual).
 */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
