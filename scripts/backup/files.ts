/**
 * Backup files as the operator names them: which database's backup a file is, and a file written
 * under a temporary name until it has been checked, so a failed backup never leaves a file that
 * looks like a good one.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';

/** What a backup or restore handled. */
export interface Summary {
  tables: number;
  rows: number;
  /** Size of the backup file, in bytes. */
  bytes: number;
  /** What the operator should know next (a role created, a schema behind this code…). */
  notes: string[];
}

/** A refusal or failure the operator can act on: the commands print its message and exit 1. */
export class OperatorError extends Error {}

/** `pg_dump --format=custom` (PostgreSQL) or PGlite's data-directory tarball (the embedded database). */
export type BackupKind = 'postgres' | 'pglite';

/**
 * Which backup `file` is, from its first bytes: a custom-format archive starts with "PGDMP"; PGlite's
 * dump is a gzip stream (1f 8b) or, uncompressed, a tar archive ("ustar" at byte 257).
 * @throws OperatorError when the file is missing or is neither.
 */
export function backupKind(file: string): BackupKind {
  if (!existsSync(file)) throw new OperatorError(`There is no file ${file}.`);
  const head = Buffer.alloc(262);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read >= 5 && head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (read >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'pglite';
  throw new OperatorError(`${file} is not a backup made by npm run backup (neither a pg_dump custom-format archive nor an embedded database's tarball).`);
}

/**
 * Where a backup to `file` is written until it is checked.
 * @throws OperatorError when `file` exists already: a backup never overwrites one.
 */
export function partialPathFor(file: string): string {
  if (existsSync(file)) throw new OperatorError(`${file} exists already: name a new file (a backup never overwrites one).`);
  return `${file}.partial`;
}
