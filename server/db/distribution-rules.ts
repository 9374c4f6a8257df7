/**
 * The rules a schema must follow to be distributed by tenant on Citus
 * (docs/decisions/042-citus-distribution.md), checked on the catalog of a migrated database by
 * `npm run check:distribution` and by its test on every run of the suite:
 * - every global table (no `tenant_id`) is named in REFERENCE_TABLES or COORDINATOR_TABLES;
 * - a company table's primary key, unique constraints and unique indexes hold `tenant_id`;
 * - a foreign key between company tables holds `tenant_id` on both sides, and none updates a key
 *   holding `tenant_id` by CASCADE, SET NULL or SET DEFAULT (Citus refuses them);
 * - no statement-level trigger on a distributed or reference table (they run on the workers'
 *   shards, where a transition table cannot be read by a distributed statement; migration 0033);
 * - no trigger on a company table sends a notification (it would run on a worker, where no server
 *   listens).
 */
import { COORDINATOR_TABLES, DISTRIBUTION_COLUMN, REFERENCE_TABLES } from './distribution';

/** One broken rule: the table, and what is wrong in plain words. */
export interface DistributionProblem {
  table: string;
  problem: string;
}

/** Runs a statement without parameters and answers its rows (a `pg` client's, PGlite's or drizzle's query, adapted). */
export type CatalogQuery = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * Reads the public schema's catalog through `query` and lists every broken rule (module comment).
 * @returns the problems, by table name; empty when the schema can be distributed.
 */
export async function distributionProblems(query: CatalogQuery): Promise<DistributionProblem[]> {
  const rowsOf = async <T>(text: string) => (await query(text)) as T[];
  const problems: DistributionProblem[] = [];
  const tables = await rowsOf<{ name: string; tenant: boolean }>(
    `select c.relname as name,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = '${DISTRIBUTION_COLUMN}' and not a.attisdropped) as tenant
     from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by 1`,
  );
  const global = new Set<string>([...REFERENCE_TABLES, ...COORDINATOR_TABLES]);
  const company = new Set(tables.filter((t) => t.tenant).map((t) => t.name));
  for (const t of tables) {
    if (!t.tenant && !global.has(t.name)) problems.push({ table: t.name, problem: `has no ${DISTRIBUTION_COLUMN} and is not named a reference or coordinator table (server/db/distribution.ts)` });
    if (t.tenant && global.has(t.name)) problems.push({ table: t.name, problem: `has ${DISTRIBUTION_COLUMN} but is named a global table` });
  }
  const uniques = await rowsOf<{ table: string; name: string; columns: string[] }>(
    `select t.relname as table, i.relname as name,
            array(select a.attname::text from unnest(x.indkey) k join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k) as columns
     from pg_index x join pg_class t on t.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
     where t.relnamespace = 'public'::regnamespace and x.indisunique`,
  );
  for (const u of uniques) {
    if (company.has(u.table) && !u.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push({ table: u.table, problem: `unique index ${u.name} (${u.columns.join(', ')}) does not hold ${DISTRIBUTION_COLUMN}` });
    }
  }
  const keys = await rowsOf<{ table: string; target: string; name: string; columns: string[]; targets: string[]; onUpdate: string }>(
    `select c.conrelid::regclass::text as table, c.confrelid::regclass::text as target, c.conname as name,
            array(select a.attname::text from unnest(c.conkey) k join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k) as columns,
            array(select a.attname::text from unnest(c.confkey) k join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k) as targets,
            c.confupdtype::text as "onUpdate"
     from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace`,
  );
  for (const k of keys) {
    if (!company.has(k.table)) continue;
    if (company.has(k.target) && (!k.columns.includes(DISTRIBUTION_COLUMN) || !k.targets.includes(DISTRIBUTION_COLUMN))) {
      problems.push({ table: k.table, problem: `foreign key ${k.name} to ${k.target} does not hold ${DISTRIBUTION_COLUMN} on both sides` });
    }
    // 'c' cascade, 'n' set null, 'd' set default: each rewrites the referencing key.
    if (['c', 'n', 'd'].includes(k.onUpdate) && k.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push({ table: k.table, problem: `foreign key ${k.name} rewrites a key holding ${DISTRIBUTION_COLUMN} on update` });
    }
  }
  const triggers = await rowsOf<{ table: string; name: string; statement: boolean; notifies: boolean }>(
    `select c.relname as table, t.tgname as name, (t.tgtype & 1) = 0 as statement,
            pg_get_functiondef(t.tgfoid) ~* '(pg_notify|\\mnotify\\M)' as notifies
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and c.relnamespace = 'public'::regnamespace`,
  );
  for (const t of triggers) {
    const distributed = company.has(t.table) || (REFERENCE_TABLES as readonly string[]).includes(t.table);
    if (distributed && t.statement) {
      problems.push({ table: t.table, problem: `statement-level trigger ${t.name}: triggers on distributed tables run on the workers' shards; use a row-level trigger writing rows of the same company, or the writer's own statement` });
    }
    if (company.has(t.table) && t.notifies) {
      problems.push({ table: t.table, problem: `trigger ${t.name} sends a notification, which would be sent on a worker where no server listens` });
    }
  }
  return problems;
}
