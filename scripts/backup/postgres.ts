/**
 * Backup and restore of a PostgreSQL database through PostgreSQL's own tools, `pg_dump
 * --format=custom` and `pg_restore`, found on PATH (docs/operations.md "Backups and restores",
 * docs/decisions/040-operations-commands.md "Backups"). Both need a role that row-level security
 * does not filter (a superuser, or BYPASSRLS): the tenant tables force RLS, and a filtered role
 * would dump or check none of any company's rows.
 */
import { spawn } from 'node:child_process';
import { renameSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { databaseUrlFor, withClient } from '../../server/db/pg-url';
import { OperatorError, partialPathFor, type Summary } from './files';
import { BEHIND_NOTE, behindThisCode, countMismatches, tableKey, tableRowCounts, totalRows, type RowCounts } from './rows';

/**
 * `url` as the client tools take it: the URL without its password, which goes to PGPASSWORD
 * (a command line is visible to every user of the machine, the environment is not).
 */
function toolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** The database's name in `url`. */
const databaseName = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * Runs a PostgreSQL client tool; its standard output goes to `onLine` line by line when given.
 * @throws OperatorError with the tool's error output when it fails, or when it is not installed.
 */
function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', onLine ? 'pipe' : 'ignore', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    if (onLine) createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', onLine);
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new OperatorError(`${tool} was not found on PATH: install PostgreSQL's client tools of the server's major version or later (Debian: postgresql-client-15).`)
          : err,
      ),
    );
    child.on('close', (code) => (code === 0 ? resolve() : reject(new OperatorError(`${tool} failed (exit code ${code}):\n${errors.trim()}`))));
  });
}

/** An identifier as pg_dump writes it: bare, or in double quotes with "" for a quote. */
const IDENT = String.raw`("(?:[^"]|"")*"|[^\s."]+)`;
const COPY_LINE = new RegExp(String.raw`^COPY ${IDENT}\.${IDENT}(?: \(.*\))? FROM stdin;$`);
const unquote = (ident: string): string => (ident.startsWith('"') ? ident.slice(1, -1).replaceAll('""', '"') : ident);

/**
 * The rows of each table in a custom-format archive: `pg_restore` writes its data as `COPY … FROM
 * stdin;` blocks of one line per row (a newline inside a value is written `\n`), ended by `\.`.
 * @throws OperatorError when pg_restore cannot read the file.
 */
async function archiveRowCounts(file: string): Promise<RowCounts> {
  const counts: RowCounts = new Map();
  let table: string | null = null;
  let rows = 0;
  await runTool('pg_restore', ['--data-only', '--file=-', file], process.env, (line) => {
    if (table === null) {
      const copy = COPY_LINE.exec(line);
      if (copy) [table, rows] = [tableKey(unquote(copy[1]!), unquote(copy[2]!)), 0];
    } else if (line === '\\.') {
      counts.set(table, rows);
      table = null;
    } else {
      rows += 1;
    }
  });
  return counts;
}

/**
 * Refuses a role that row-level security filters: reading as it would miss every company's rows.
 * @throws OperatorError naming the role and what it needs.
 */
async function assertReadsEveryRow(client: pg.Client, action: 'back up' | 'restore'): Promise<void> {
  const { rows } = await client.query<{ role: string; rolsuper: boolean; rolbypassrls: boolean }>(
    'select rolname as role, rolsuper, rolbypassrls from pg_roles where rolname = current_user',
  );
  const me = rows[0]!;
  if (me.rolsuper || me.rolbypassrls) return;
  const how =
    action === 'back up'
      ? `Connect as a superuser, or as a role made for backups by a superuser: CREATE ROLE inventory_backup LOGIN BYPASSRLS PASSWORD '…' IN ROLE pg_read_all_data;`
      : 'Connect as a superuser.';
  throw new OperatorError(
    `The role ${me.role} cannot ${action} every company's rows: the tenant tables force row-level security, and it is neither a superuser nor BYPASSRLS. ` +
      `${how} (docs/operations.md "Backups and restores")`,
  );
}

/**
 * Opens a client on `url` as a role that reads every row (assertReadsEveryRow).
 * @throws OperatorError when the role is filtered by row-level security.
 */
async function connectAsReader(url: string, action: 'back up' | 'restore'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await assertReadsEveryRow(client, action);
    // Should a policy still apply, reading fails instead of answering fewer rows.
    await client.query('set row_security = off');
    return client;
  } catch (err) {
    await client.end();
    throw err;
  }
}

/**
 * Backs up the database of `url` to `file` (which must not exist): `pg_dump --format=custom` on a
 * snapshot exported by this process, in which every table's rows are counted meanwhile; the file's
 * rows are then counted back (archiveRowCounts) and must be the same, table by table. The file is
 * written as `file.partial` and renamed once checked.
 * @throws OperatorError when the role may not read every row, pg_dump fails, or the counts differ
 *   (no file is left then).
 */
export async function backupPostgres(url: string, file: string): Promise<Summary> {
  const partial = partialPathFor(file);
  const client = await connectAsReader(url, 'back up');
  const { dbname, env } = toolConnection(url);
  try {
    let inDatabase: RowCounts;
    try {
      // pg_dump reads this transaction's snapshot, so the counts are of exactly what it dumps.
      await client.query('begin isolation level repeatable read, read only');
      const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
      const dump = runTool('pg_dump', ['--format=custom', `--snapshot=${rows[0]!.snapshot}`, `--file=${partial}`, '--no-password', `--dbname=${dbname}`], env);
      const counting = tableRowCounts((text) => client.query(text));
      [inDatabase] = await Promise.all([counting, dump]);
      await client.query('commit');
    } finally {
      await client.end();
    }
    const inFile = await archiveRowCounts(partial);
    const wrong = countMismatches(inDatabase, inFile, { expected: 'the database', actual: 'the backup' });
    if (wrong.length > 0) throw new OperatorError(`The backup does not hold every row of the database:\n  ${wrong.join('\n  ')}`);
    renameSync(partial, file);
    return { tables: inFile.size, rows: totalRows(inFile), bytes: statSync(file).size, notes: [] };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}

/** Tables, views and sequences outside PostgreSQL's own schemas: a new database has none. */
const RELATIONS_SQL = `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'`;

/** A name PostgreSQL keeps whole (identifiers are cut at 63 bytes): `name` cut to leave room for `suffix`. */
const siblingName = (name: string, suffix: string): string => `${Buffer.from(name).subarray(0, 63 - suffix.length).toString()}${suffix}`;

/** Runs `fn` on a client of the server's `postgres` database (creating, renaming and dropping databases). */
const onMaintenance = <T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> => withClient(databaseUrlFor(url, 'postgres'), fn);

/**
 * Restores `file` into the empty database of `url` in one transaction, creating the application
 * role first when the cluster lacks it, and compares the restored rows with `inFile`.
 * @throws OperatorError when pg_restore fails (it names a role this cluster lacks, say) or the
 *   counts differ.
 */
async function restoreInto(url: string, file: string, inFile: RowCounts, notes: string[]): Promise<void> {
  const client = await connectAsReader(url, 'restore');
  try {
    const { rowCount } = await client.query(`select 1 from pg_roles where rolname = 'inventory_app'`);
    if (rowCount === 0) {
      await client.query('create role inventory_app nologin');
      notes.push('Created the role inventory_app (roles belong to the cluster, not to a backup): a server login that is not a superuser needs GRANT inventory_app TO <login>.');
    }
    const { dbname, env } = toolConnection(url);
    await runTool('pg_restore', ['--single-transaction', '--exit-on-error', '--no-password', `--dbname=${dbname}`, file], env).catch((err: Error) => {
      const role = /role "([^"]+)" does not exist/.exec(err.message)?.[1];
      if (!role) throw err;
      throw new OperatorError(`${err.message}\nThe backup names the role ${role}, which this PostgreSQL server lacks: create it (CREATE ROLE ${role} LOGIN …) and restore again.`);
    });
    const restored = await tableRowCounts((text) => client.query(text));
    const wrong = countMismatches(inFile, restored, { expected: 'the backup', actual: 'the database' });
    if (wrong.length > 0) throw new OperatorError(`The restored database does not hold every row of the backup:\n  ${wrong.join('\n  ')}`);
    if (await behindThisCode((text) => client.query(text))) notes.push(BEHIND_NOTE);
  } finally {
    await client.end();
  }
}

/**
 * Restores the custom-format archive `file` into the database of `url` and checks that every
 * table holds the file's rows:
 * - a database that does not exist is created (owned by the connecting role);
 * - an empty one is restored into, in one transaction (`pg_restore --single-transaction`), so a
 *   failed restore leaves it empty;
 * - one that holds any table is refused unless `clean`: then the backup is restored into a new
 *   database beside it, with the same owner, checked, and only then given its name, the old one
 *   dropped. pg_restore's own `--clean` cannot drop pg-boss's partitioned tables, and this way a
 *   failed restore leaves the old database as it was. No other session may be connected to it.
 * @throws OperatorError when the role may not read every row, the database is not empty (or still
 *   in use, with `clean`), pg_restore fails, or the counts differ.
 */
export async function restorePostgres(url: string, file: string, opts: { clean: boolean }): Promise<Summary> {
  const inFile = await archiveRowCounts(file);
  const summary = { tables: inFile.size, rows: totalRows(inFile), bytes: statSync(file).size, notes: [] as string[] };
  const name = databaseName(url);

  let existing: pg.Client | null = new pg.Client({ connectionString: url });
  try {
    await existing.connect();
  } catch (err) {
    await existing.end().catch(() => {});
    if ((err as { code?: string }).code !== '3D000') throw err;
    existing = null;
  }
  if (!existing) {
    await onMaintenance(url, async (admin) => {
      await assertReadsEveryRow(admin, 'restore');
      await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    });
    summary.notes.push(`Created the database ${name}, owned by the role that restored it (a server logging in as another role needs ALTER DATABASE … OWNER TO it).`);
    await restoreInto(url, file, inFile, summary.notes);
    return summary;
  }

  let owner: string;
  try {
    await assertReadsEveryRow(existing, 'restore');
    const [relations] = (await existing.query<{ n: number }>(RELATIONS_SQL)).rows;
    if (relations!.n === 0) {
      await existing.end();
      existing = null;
      await restoreInto(url, file, inFile, summary.notes);
      return summary;
    }
    if (!opts.clean) {
      throw new OperatorError(
        `The database ${name} is not empty (${relations!.n} tables, views or sequences). Restore into a new database, or pass --clean to replace it.`,
      );
    }
    const [others] = (await existing.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows;
    if (others!.n > 0) throw new OperatorError(`${others!.n} other sessions are connected to ${name}: stop the servers before replacing their database.`);
    owner = (await existing.query<{ owner: string }>('select pg_get_userbyid(datdba) as owner from pg_database where datname = current_database()')).rows[0]!.owner;
  } finally {
    await existing?.end();
  }

  const staging = siblingName(name, '_restoring');
  const replaced = siblingName(name, '_replaced');
  const id = pg.escapeIdentifier;
  await onMaintenance(url, async (admin) => {
    await admin.query(`drop database if exists ${id(staging)}`);
    await admin.query(`create database ${id(staging)} owner ${id(owner)}`);
  });
  try {
    await restoreInto(databaseUrlFor(url, staging), file, inFile, summary.notes);
  } catch (err) {
    await onMaintenance(url, (admin) => admin.query(`drop database if exists ${id(staging)}`));
    throw err;
  }
  await onMaintenance(url, async (admin) => {
    await admin.query(`alter database ${id(name)} rename to ${id(replaced)}`);
    await admin.query(`alter database ${id(staging)} rename to ${id(name)}`);
    await admin.query(`drop database ${id(replaced)}`);
  });
  return summary;
}
