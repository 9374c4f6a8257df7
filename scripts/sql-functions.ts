/**
 * npm run db:functions: writes docs/sql-functions.md, the one place that shows each SQL function's
 * current body. Several migrations redefine a function (`CREATE OR REPLACE FUNCTION`), so its body
 * as it runs is the last of them; this script migrates a fresh in-memory PGlite database with the
 * migrations of drizzle/ and reads the result back from the catalogue:
 *
 * - every function and trigger function of the public schema (`pg_proc` joined to `pg_namespace`,
 *   functions an extension owns left out), in name order, with its arguments, its result, the
 *   migrations that create it (found by name in drizzle/*.sql) and its body as
 *   `pg_get_functiondef` prints it;
 * - every trigger of the public schema: its name, table, when it fires and the function it calls.
 *
 * The text depends only on the migrations, never on the machine or the day, so two runs write the
 * same file; `scripts/sql-functions.test.ts` fails while the committed file differs from what this
 * script would write.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { queryRows, wrapPglite, type Database } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { migrationsFolder } from '../server/paths';

/** The file this script writes. */
export const SQL_FUNCTIONS_DOC = fileURLToPath(new URL('../docs/sql-functions.md', import.meta.url));

interface FunctionRow {
  name: string;
  args: string;
  result: string;
  definition: string;
}

interface TriggerRow {
  name: string;
  table: string;
  definition: string;
}

/** What one migration does to a function, found by its name, in the order it does it. */
interface MigrationMention {
  file: string;
  actions: ('created' | 'replaced' | 'dropped')[];
}

/** Plain code-unit order: the same on every machine, whatever the database's collation. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The migrations of `folder` (its `.sql` files, in name order) that create, replace or drop a
 * function, by the function's name: `CREATE [OR REPLACE] FUNCTION "name"(` or `function name(`,
 * quoted or not, with or without the `public.` schema.
 */
export function functionMigrations(folder: string): Map<string, MigrationMention[]> {
  const found = new Map<string, MigrationMention[]>();
  const statement =
    /\b(create\s+or\s+replace|create|drop)\s+function\s+(?:if\s+exists\s+)?(?:"?public"?\s*\.\s*)?"?([a-z_][a-z0-9_$]*)"?\s*\(/gi;
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort(byText);
  for (const file of files) {
    // Comments may name a function; only statements count.
    const text = readFileSync(join(folder, file), 'utf8').replace(/--[^\n]*/g, '');
    for (const match of text.matchAll(statement)) {
      const verb = match[1]!.toLowerCase().replace(/\s+/g, ' ');
      const action = verb === 'drop' ? 'dropped' : verb === 'create' ? 'created' : 'replaced';
      const name = match[2]!.toLowerCase();
      const mentions = found.get(name) ?? [];
      const mention = mentions.find((m) => m.file === file) ?? { file, actions: [] };
      if (mention.actions.length === 0) mentions.push(mention);
      if (!mention.actions.includes(action)) mention.actions.push(action);
      found.set(name, mentions);
    }
  }
  return found;
}

/**
 * When a trigger fires, as its definition says it: the timing and events (`AFTER UPDATE OF "x" OR
 * DELETE`), the transition tables it reads and whether it runs for each row or each statement.
 */
function firing(definition: string): string {
  const match = /^CREATE (?:CONSTRAINT )?TRIGGER \S+ (.+?) ON \S+ (.*?)FOR EACH (ROW|STATEMENT)/.exec(definition);
  if (!match) return definition;
  const [, when, between, each] = match;
  const referencing = between!.trim();
  return [when, referencing, `for each ${each!.toLowerCase()}`].filter(Boolean).join(', ');
}

/** The call after `EXECUTE FUNCTION` in a trigger's definition: the function with its arguments. */
function triggerCall(definition: string): string {
  const call = /\bEXECUTE (?:FUNCTION|PROCEDURE) (.+)$/.exec(definition)?.[1] ?? definition;
  return call.replace(/^public\./, '');
}

const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;

/**
 * The text of docs/sql-functions.md for the schema of `database` (already migrated), naming the
 * migrations of `folder` that define each function.
 */
export async function sqlFunctionsDocument(database: Database, folder = migrationsFolder): Promise<string> {
  const functions = await queryRows<FunctionRow>(
    database.db,
    sql`select p.proname as name,
          pg_get_function_identity_arguments(p.oid) as args,
          pg_get_function_result(p.oid) as result,
          pg_get_functiondef(p.oid) as definition
        from pg_proc p
        join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'
          and p.prokind in ('f', 'p')
          and not exists (
            select 1 from pg_depend d
            where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e'
          )`,
  );
  const triggers = await queryRows<TriggerRow>(
    database.db,
    sql`select t.tgname as name, c.relname as "table",
          pg_get_triggerdef(t.oid) as definition
        from pg_trigger t
        join pg_class c on c.oid = t.tgrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and not t.tgisinternal`,
  );
  functions.sort((a, b) => byText(a.name, b.name) || byText(a.args, b.args));
  triggers.sort((a, b) => byText(a.table, b.table) || byText(a.name, b.name));
  const migrations = functionMigrations(folder);

  const lines: string[] = [
    '# SQL functions and triggers',
    '',
    '<!-- Written by `npm run db:functions` (scripts/sql-functions.ts) from a database migrated with',
    '     drizzle/: do not edit by hand. The test scripts/sql-functions.test.ts fails while it is out of date. -->',
    '',
    'Each function of the public schema as the migrations leave it, in name order: its arguments, the',
    'migrations that define it and its current body, read back from the database with',
    '`pg_get_functiondef`. A later migration that replaces a function replaces its whole body, so the',
    'body below is the one that runs; the migrations listed are where its history is.',
    '',
    '## Functions',
    '',
  ];
  for (const fn of functions) {
    lines.push(`- [${fn.name}(${fn.args})](#${anchor(fn)})`);
  }
  lines.push('');
  for (const fn of functions) {
    const calledBy = triggers.filter((t) => triggerCall(t.definition).startsWith(`${fn.name}(`));
    const mentions = migrations.get(fn.name) ?? [];
    lines.push(`### ${fn.name}(${fn.args})`, '');
    lines.push(`Returns ${code(fn.result)}.`, '');
    if (mentions.length === 0) {
      lines.push('Defined in: no migration names it.');
    } else {
      lines.push('Defined in:', '');
      for (const m of mentions) lines.push(`- [${m.file}](../drizzle/${m.file}) (${m.actions.join(', then ')})`);
    }
    lines.push('');
    if (calledBy.length > 0) {
      const list = calledBy.map((t) => `${code(t.name)} on ${code(t.table)}`).join(', ');
      lines.push(`Called by the trigger${calledBy.length > 1 ? 's' : ''} ${list}.`, '');
    }
    lines.push('```sql', fn.definition.trimEnd(), '```', '');
  }
  lines.push('## Triggers', '');
  if (triggers.length === 0) {
    lines.push('None.');
  } else {
    lines.push('| Trigger | Table | Fires | Function |', '| --- | --- | --- | --- |');
    for (const t of triggers) {
      lines.push(`| ${code(t.name)} | ${code(t.table)} | ${firing(t.definition)} | ${code(triggerCall(t.definition))} |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * The heading's anchor as GitHub makes it: lower case, punctuation other than `-` and `_` removed,
 * spaces turned into `-`.
 */
function anchor(fn: FunctionRow): string {
  return `${fn.name}(${fn.args})`
    .toLowerCase()
    .replace(/[^a-z0-9_\- ]/g, '')
    .replace(/ /g, '-');
}

/** Migrates a fresh in-memory database and returns the document's text. */
export async function generateSqlFunctionsDocument(): Promise<string> {
  const database = wrapPglite(await PGlite.create());
  try {
    await runMigrations(database);
    return await sqlFunctionsDocument(database);
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  writeFileSync(SQL_FUNCTIONS_DOC, await generateSqlFunctionsDocument());
  console.log(`SQL functions written to ${SQL_FUNCTIONS_DOC}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
