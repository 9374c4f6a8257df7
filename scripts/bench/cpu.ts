/**
 * CPU time accounting for the benchmark, from Linux's /proc: the server's main thread (where
 * Fastify, better-auth, drizzle and the pg driver run) and the PostgreSQL backends serving the
 * benchmark database. Dividing by the requests served tells which side limits throughput.
 * Off Linux, or with a PostgreSQL on another machine, the readings are null.
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** Linux's USER_HZ: /proc reports CPU time in 1/100 s. */
const TICK_MS = 10;

/** utime + stime of a /proc stat file, in ms; null when unreadable. */
function statCpuMs(path: string): number | null {
  try {
    // The command name (field 2) may contain spaces; fields after it are space-separated.
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** CPU time used so far by this process's main thread, in ms (null off Linux). */
export function mainThreadCpuMs(): number | null {
  return statCpuMs(`/proc/self/task/${process.pid}/stat`);
}

/**
 * CPU time used so far by the client backends currently connected to `database`, in ms, or null
 * when their /proc entries cannot be read (PostgreSQL elsewhere, or not Linux). Parallel query
 * and autovacuum workers are left out: they come and go between two readings, and one that has
 * exited would make its /proc entry unreadable.
 */
export async function postgresCpuMs(client: pg.Client, database: string): Promise<number | null> {
  const { rows } = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    [database],
  );
  let total = 0;
  for (const { pid } of rows) {
    const ms = statCpuMs(`/proc/${pid}/stat`);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}
