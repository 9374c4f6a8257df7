/**
 * The check behind every backup and restore (docs/decisions/040-operations-commands.md "Backups"):
 * the rows of every table, counted in a database and in a backup file, compared table by table;
 * and whether a restored database is at this code's schema.
 */
import { escapeIdentifier, escapeLiteral } from 'pg';
import { latestMigration } from '../../server/modules/health/service';

/** Runs one SQL text and answers its rows: a `pg` client's or PGlite's `query`. */
export type RunQuery = (text: string) => Promise<{ rows: unknown[] }>;

/** Rows per table, keyed by the table's quoted, schema-qualified name (`"pgboss"."job"`). */
export type RowCounts = Map<string, number>;

/** The key of a table in {@link RowCounts}. */
export const tableKey = (schema: string, table: string): string => `${escapeIdentifier(schema)}.${escapeIdentifier(table)}`;

/**
 * Counts the rows of every table that holds rows: the ordinary tables (each partition of a
 * partitioned table, never its parent) of every schema but PostgreSQL's own, in one statement.
 * Run as a role that row-level security does not filter, or the counts are the policies' view.
 */
export async function tableRowCounts(run: RunQuery): Promise<RowCounts> {
  const { rows } = await run(
    `select n.nspname as schema, c.relname as table
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and c.relpersistence <> 't'
        and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
      order by 1, 2`,
  );
  const tables = (rows as { schema: string; table: string }[]).map((r) => tableKey(r.schema, r.table));
  if (tables.length === 0) return new Map();
  const counted = await run(tables.map((t) => `select ${escapeLiteral(t)} as t, count(*)::bigint::text as n from ${t}`).join(' union all '));
  return new Map((counted.rows as { t: string; n: string }[]).map((r) => [r.t, Number(r.n)]));
}

/** All the rows of `counts`. */
export const totalRows = (counts: RowCounts): number => [...counts.values()].reduce((a, b) => a + b, 0);

/**
 * The tables of `expected` whose count differs in `actual` (or that `actual` lacks), one line
 * each, e.g. `"public"."items": 12 in the database, 0 in the backup`; none when all agree. Tables
 * only `actual` has are not compared.
 */
export function countMismatches(expected: RowCounts, actual: RowCounts, names: { expected: string; actual: string }): string[] {
  return [...expected].flatMap(([table, n]) => {
    const m = actual.get(table);
    if (m === n) return [];
    return [`${table}: ${n} in ${names.expected}, ${m === undefined ? 'missing' : m} in ${names.actual}`];
  });
}

/** The note a restore gives when the backup's schema is older than this code's. */
export const BEHIND_NOTE = 'The backup is of an earlier schema: npm run db:migrate (or the next server boot) brings it up to date.';

/**
 * Whether the database lacks this code's latest migration (server/modules/health/service.ts: the
 * migrator records each migration's journal time in drizzle.__drizzle_migrations).
 */
export async function behindThisCode(run: RunQuery): Promise<boolean> {
  const { rows } = await run('select coalesce(max(created_at), 0)::float8 as at from drizzle.__drizzle_migrations');
  return Number((rows as { at: number }[])[0]!.at) < latestMigration().when;
}
