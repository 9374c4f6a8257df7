/**
 * Readiness (decision 010): the database answers within a short time and holds the latest
 * migration this code ships with (the last entry of drizzle/meta/_journal.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pTimeout from 'p-timeout';
import { z } from 'zod';
import { queryRows, type Db } from '../../db/client';
import { migrationsFolder } from '../../paths';

/** Longest wait for the readiness query, in ms: a probe must answer before its own timeout. */
export const READY_TIMEOUT_MS = 2_000;

export interface Migration {
  /** File name without `.sql`, e.g. "0010_rls_everywhere". */
  tag: string;
  /** The journal's `when` (ms since the epoch): what drizzle's migrator records as `created_at`. */
  when: number;
}

const journal = z.object({ entries: z.array(z.object({ tag: z.string(), when: z.number() })).min(1) });

/**
 * The latest migration of `folder`'s journal (default: the committed drizzle/ folder).
 * @throws ZodError when the journal is malformed or empty, Error when it cannot be read.
 */
export function latestMigration(folder = migrationsFolder): Migration {
  const { entries } = journal.parse(JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')));
  return entries.reduce((latest, entry) => (entry.when > latest.when ? entry : latest));
}

export type Readiness =
  | { ready: true }
  /** `behind`: the database answered without the latest migration; `unreachable`: it failed or timed out (`error`). */
  | { ready: false; problem: 'behind' }
  | { ready: false; problem: 'unreachable'; error: unknown };

/** The newest migration recorded by drizzle's migrator, in ms; 0 when none was ever applied. */
async function appliedUpTo(db: Db): Promise<number> {
  const [table] = await queryRows<{ present: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table?.present) return 0;
  const [row] = await queryRows<{ applied: number }>(db, sql`select coalesce(max(created_at), 0)::float8 as applied from drizzle.__drizzle_migrations`);
  return Number(row?.applied ?? 0);
}

/**
 * Asks `db` for its newest applied migration, waiting at most `timeoutMs`. Drizzle's migrator
 * applies in journal order and records each migration's `when` in drizzle.__drizzle_migrations, so
 * the database is up to date when its newest record is at least `latest.when`. Never throws.
 */
export async function readiness(db: Db, latest: Migration, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  try {
    const applied = await pTimeout(appliedUpTo(db), { milliseconds: timeoutMs });
    return applied >= latest.when ? { ready: true } : { ready: false, problem: 'behind' };
  } catch (err) {
    return { ready: false, problem: 'unreachable', error: err };
  }
}
