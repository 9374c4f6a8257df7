/**
 * What `npm run backup` and `npm run restore` share as commands: their arguments, the database
 * the server's variables name, the report, and the exit codes (0 done and checked, 1 refused or
 * failed, 2 bad arguments).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../../server/config';
import { OperatorError, type Summary } from './files';

/** The arguments of a backup or restore command line. */
export interface CommandArgs {
  file: string;
  clean: boolean;
}

/**
 * Parses `argv` (`<file> [--clean]`, or `--help`).
 * @returns the arguments, or the exit code when there is nothing to run (help printed: 0; a bad
 *   command line, reported with `usage`: 2).
 */
export function commandArgs(argv: string[], usage: string, opts: { clean: boolean }): CommandArgs | number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' }, ...(opts.clean ? { clean: { type: 'boolean' } } : {}) },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(usage);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    console.error(usage);
    return 2;
  }
  return { file: resolve(parsed.positionals[0]!), clean: parsed.values.clean === true };
}

/**
 * The server's configuration (server/config.ts), which names the database: DATABASE_URL, else
 * DATA_DIR.
 * @throws OperatorError naming every bad variable.
 */
export function serverConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new OperatorError(err.message);
    throw err;
  }
}

/** "42 tables, 12,345 rows, 3.2 MB" */
export function summaryLine(summary: Summary): string {
  const mb = (summary.bytes / 1_048_576).toFixed(1);
  return `${summary.tables} tables, ${summary.rows.toLocaleString('en-US')} rows, ${mb} MB`;
}

/**
 * Runs a command's `main` and exits with its code; an OperatorError's message is printed alone
 * (it says what to do), any other error with its stack, both with exit code 1.
 */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof OperatorError ? err.message : err);
      process.exit(1);
    },
  );
}
