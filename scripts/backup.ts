/**
 * `npm run backup -- <file>`: backs up the database the server uses to a new file, and checks that
 * the file holds every row of every table (docs/operations.md "Backups and restores"). Uses the
 * server's variables: DATABASE_URL for PostgreSQL (pg_dump's custom format; the role must be a
 * superuser or BYPASSRLS), otherwise the embedded database in DATA_DIR (a gzip tarball; no server
 * may be running on it).
 *
 * Exit codes: 0 backed up and checked; 1 refused or failed, nothing written; 2 bad arguments.
 */
import { resolve } from 'node:path';
import { commandArgs, runCommand, serverConfig, summaryLine } from './backup/command';
import { backupPglite } from './backup/pglite';
import { backupPostgres } from './backup/postgres';

const usage = `Usage: npm run backup -- <file>

Backs up the database the server uses to <file>, a new file, and checks that it holds every row
of every table.
  DATABASE_URL set   PostgreSQL, by pg_dump --format=custom. Connect as a superuser or a role with
                     BYPASSRLS (e.g. inventory_backup, docs/operations.md): the tenant tables force
                     row-level security, and any other role is refused.
  otherwise          the embedded database in DATA_DIR, as a gzip tarball. Stop the server first.

Keep APP_SECRET (on the embedded database: DATA_DIR/app-secret) safe with the backup but apart
from it: it seals the stored Hostaway credentials, and a restore with another secret cannot read
them.

Exit codes: 0 backed up and checked; 1 refused or failed (nothing is left at <file>); 2 bad arguments.`;

runCommand(async () => {
  const args = commandArgs(process.argv.slice(2), usage, { clean: false });
  if (typeof args === 'number') return args;
  const config = serverConfig();
  if (config.databaseUrl) {
    console.log(`Backing up PostgreSQL (DATABASE_URL) to ${args.file}…`);
    const summary = await backupPostgres(config.databaseUrl, args.file);
    console.log(`Backed up and checked: ${summaryLine(summary)}.\nKeep APP_SECRET with this backup, apart from the file.`);
  } else {
    const dataDir = resolve(config.dataDir);
    console.log(`Backing up the embedded database in ${dataDir} to ${args.file}…`);
    const summary = await backupPglite(dataDir, args.file);
    console.log(`Backed up and checked: ${summaryLine(summary)}.\nKeep ${dataDir}/app-secret (or APP_SECRET, when set) with this backup, apart from the file.`);
  }
  return 0;
});
