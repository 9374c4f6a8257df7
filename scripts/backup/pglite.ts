/**
 * Backup and restore of the embedded database (PGlite) in DATA_DIR through PGlite's own dump of its
 * data directory: `dumpDataDir('gzip')` writes a tarball of PostgreSQL's files, and `loadDataDir`
 * starts a new data directory from one (docs/operations.md "Backups and restores",
 * docs/decisions/040-operations-commands.md "Backups"). Both hold DATA_DIR's lock while they work,
 * as a server does: they refuse while a server (or another command) uses the directory.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DataDirLockedError, lockDataDir, pgliteDirOf } from '../../server/db/client';
import { OperatorError, partialPathFor, type Summary } from './files';
import { BEHIND_NOTE, behindThisCode, countMismatches, tableRowCounts, totalRows, type RowCounts } from './rows';

/** Whether `dir` holds a PostgreSQL data directory. */
const holdsDatabase = (dir: string): boolean => existsSync(join(dir, 'PG_VERSION'));

/**
 * Runs `fn` holding DATA_DIR's lock.
 * @throws OperatorError when a server or another command holds it.
 */
async function withDataDir<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new OperatorError(`${err.message} The embedded database is copied only while no server uses it.`);
    throw err;
  }
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Opens PGlite with `options`, runs `fn` on it and closes it. */
async function withPglite<T>(options: { dataDir?: string; loadDataDir?: Blob }, fn: (db: PGlite) => Promise<T>): Promise<T> {
  const db = await PGlite.create(options);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const countRows = (db: PGlite): Promise<RowCounts> => tableRowCounts((text) => db.query(text));

/**
 * Backs up the embedded database of `dataDir` to `file` (which must not exist): a gzip tarball of
 * its data directory, loaded back into memory and checked to hold every table's rows as counted in
 * the database. The file is written as `file.partial` and renamed once checked.
 * @throws OperatorError when there is no database in `dataDir`, a server uses it, or the counts differ.
 */
export async function backupPglite(dataDir: string, file: string): Promise<Summary> {
  const partial = partialPathFor(file);
  const source = pgliteDirOf(dataDir);
  if (!holdsDatabase(source)) throw new OperatorError(`There is no embedded database in ${dataDir} (DATA_DIR) to back up.`);
  const { inDatabase, tarball } = await withDataDir(dataDir, () =>
    withPglite({ dataDir: source }, async (db) => ({
      inDatabase: await countRows(db),
      tarball: await db.dumpDataDir('gzip'),
    })),
  );
  const inFile = await withPglite({ loadDataDir: tarball }, countRows);
  const wrong = countMismatches(inDatabase, inFile, { expected: 'the database', actual: 'the backup' });
  if (wrong.length > 0) throw new OperatorError(`The backup does not hold every row of the database:\n  ${wrong.join('\n  ')}`);
  const bytes = Buffer.from(await tarball.arrayBuffer());
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return { tables: inFile.size, rows: totalRows(inFile), bytes: bytes.length, notes: [] };
}

/**
 * Restores the tarball `file` as the embedded database of `dataDir`, which must hold none unless
 * `clean` (then it is replaced). The tarball is loaded into `pglite.restoring` beside the database's
 * directory, opened again from disk and checked to hold every table's rows of the backup (counted
 * in memory), and only then takes the database's place: a failed restore leaves DATA_DIR as it was.
 * @throws OperatorError when `dataDir` holds a database and `clean` is not set, a server uses it, the
 *   file cannot be loaded, or the counts differ.
 */
export async function restorePglite(dataDir: string, file: string, opts: { clean: boolean }): Promise<Summary> {
  const tarball = new Blob([readFileSync(file)]);
  const target = pgliteDirOf(dataDir);
  const staging = `${target}.restoring`;
  return withDataDir(dataDir, async () => {
    if (holdsDatabase(target) && !opts.clean) {
      throw new OperatorError(`${dataDir} (DATA_DIR) holds an embedded database already. Restore into a new DATA_DIR, or pass --clean to replace it.`);
    }
    const inFile = await withPglite({ loadDataDir: tarball }, countRows);
    rmSync(staging, { recursive: true, force: true });
    try {
      await withPglite({ dataDir: staging, loadDataDir: tarball }, async () => undefined);
      const { restored, behind } = await withPglite({ dataDir: staging }, async (db) => ({
        restored: await countRows(db),
        behind: await behindThisCode((text) => db.query(text)),
      }));
      const wrong = countMismatches(inFile, restored, { expected: 'the backup', actual: 'the restored database' });
      if (wrong.length > 0) throw new OperatorError(`The restored database does not hold every row of the backup:\n  ${wrong.join('\n  ')}`);
      rmSync(target, { recursive: true, force: true });
      renameSync(staging, target);
      return { tables: inFile.size, rows: totalRows(inFile), bytes: tarball.size, notes: behind ? [BEHIND_NOTE] : [] };
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw err;
    }
  });
}
