/**
 * `npm run restore -- <file> [--clean]`: restores a backup made by `npm run backup` into the
 * database the server's variables name, and checks that it holds every row of every table of the
 * backup (docs/operations.md "Backups and restores"). DATABASE_URL: PostgreSQL, through
 * pg_restore, into a new or empty database (created when it does not exist); otherwise the
 * embedded database of DATA_DIR, which must hold none. `--clean` replaces what is there instead
 * of refusing, once the restored copy is checked.
 *
 * Exit codes: 0 restored and checked; 1 refused or failed, the database left as it was; 2 bad
 * arguments.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commandArgs, runCommand, serverConfig, summaryLine } from './backup/command';
import { backupKind, OperatorError } from './backup/files';
import { restorePglite } from './backup/pglite';
import { restorePostgres } from './backup/postgres';

const usage = `Usage: npm run restore -- <file> [--clean]

Restores a backup made by npm run backup, then checks that every row of every table of the backup
is in the database.
  DATABASE_URL set   PostgreSQL, by pg_restore in one transaction, into the database of the URL:
                     created when it does not exist, refused when it holds tables. Connect as a
                     superuser (or a BYPASSRLS role that may create the backup's objects).
  otherwise          the embedded database of DATA_DIR, refused when it holds one already. Stop
                     the server first.
  --clean            replace what the database holds instead of refusing.

Start the server with the APP_SECRET of the backed-up server (on the embedded database: its
DATA_DIR/app-secret file): with another secret the stored Hostaway credentials cannot be read.

Exit codes: 0 restored and checked; 1 refused or failed (the database is left as it was); 2 bad arguments.`;

runCommand(async () => {
  const args = commandArgs(process.argv.slice(2), usage, { clean: true });
  if (typeof args === 'number') return args;
  const kind = backupKind(args.file);
  const config = serverConfig();
  if (config.databaseUrl) {
    if (kind !== 'postgres') throw new OperatorError(`${args.file} is a backup of an embedded database: unset DATABASE_URL and set DATA_DIR to restore it.`);
    console.log(`Restoring ${args.file} into PostgreSQL (DATABASE_URL)…`);
    const summary = await restorePostgres(config.databaseUrl, args.file, { clean: args.clean });
    console.log([`Restored and checked: ${summaryLine(summary)}.`, ...summary.notes, 'Start the server with the APP_SECRET of the backed-up server.'].join('\n'));
  } else {
    if (kind !== 'pglite') throw new OperatorError(`${args.file} is a backup of a PostgreSQL database: set DATABASE_URL to restore it.`);
    const dataDir = resolve(config.dataDir);
    console.log(`Restoring ${args.file} into the embedded database in ${dataDir}…`);
    const summary = await restorePglite(dataDir, args.file, { clean: args.clean });
    const secret =
      config.appSecret || existsSync(join(dataDir, 'app-secret'))
        ? 'Start the server with the APP_SECRET of the backed-up server (its DATA_DIR/app-secret file).'
        : `Copy the backed-up data directory's app-secret file to ${join(dataDir, 'app-secret')} (or set APP_SECRET to it) before starting the server: otherwise it makes a new secret and the stored Hostaway credentials cannot be read.`;
    console.log([`Restored and checked: ${summaryLine(summary)}.`, ...summary.notes, secret].join('\n'));
  }
  return 0;
});
