/**
 * Readings from Linux's /proc for the benchmark: CPU time of the server's main thread (where
 * Fastify, better-auth, drizzle, the pg driver and, on the embedded database, PGlite run) and of
 * the PostgreSQL backends serving the benchmark database, and the server's memory. Dividing CPU
 * time by the requests served tells which side limits throughput. Off Linux, or with a
 * PostgreSQL on another machine, the readings are null.
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

/**
 * CPU time used so far by the main thread of process `pid` (its thread whose id is the process
 * id; Node's worker, libuv pool and garbage-collector threads are left out), in ms; null off Linux
 * or once the process has exited.
 */
export function mainThreadCpuMs(pid: number): number | null {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
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

/** Resident memory of a process, in MB (1,000,000 bytes). */
export interface Memory {
  /** VmRSS: resident now. */
  rssMB: number;
  /** VmHWM: the highest resident size since the process started. */
  peakMB: number;
}

/** VmRSS and VmHWM of process `pid` from /proc/<pid>/status; null off Linux or once it has exited. */
export function processMemory(pid: number): Memory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    // Both lines read like "VmRSS:	  123456 kB", where the kernel's kB are 1,024 bytes.
    const mb = (field: string) => (Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024) / 1e6;
    return { rssMB: mb('VmRSS'), peakMB: mb('VmHWM') };
  } catch {
    return null;
  }
}
