/**
 * `npm run test:citus`: the API suites that matter on a distributed database (tenancy and
 * row-level security, the stock concurrency storm, the dashboard, reports, the forecast, team;
 * vitest.citus.config.ts) against a Citus cluster of a coordinator and two workers, each test file
 * on its own database migrated by the product's migrations and distributed by
 * `npm run db:distribute`'s code (server/test/citus.ts).
 *
 * The cluster: the one CITUS_URL names (its coordinator's `postgres` database, the workers added),
 * or else a throw-away one started here on loopback in a temporary directory when the Citus
 * extension is installed in the local PostgreSQL 15 (`citus.control` in its extension directory;
 * an operator installs Citus from its packages). Without either the suite says it is skipped and
 * exits 0.
 *
 * Exit codes: vitest's (0 passed or skipped, 1 a test failed), 2 when the cluster cannot start.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

/** Runs `command` (through bash), as the `postgres` user when this process is root (PostgreSQL refuses root). @throws Error with its output when it fails */
function run(command: string): string {
  const asRoot = userInfo().uid === 0;
  const result = asRoot
    ? spawnSync('su', ['postgres', '-s', '/bin/bash', '-c', command], { encoding: 'utf8' })
    : spawnSync('bash', ['-c', command], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command}\n${result.stdout}${result.stderr}`);
  return result.stdout.trim();
}

/** The bin directory of the local PostgreSQL 15, or null without one. */
function postgresBin(): string | null {
  const pgConfig = ['/usr/lib/postgresql/15/bin/pg_config', 'pg_config'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!pgConfig) return null;
  const version = spawnSync(pgConfig, ['--version'], { encoding: 'utf8' }).stdout;
  if (!/PostgreSQL 15\./.test(version)) return null;
  const share = spawnSync(pgConfig, ['--sharedir'], { encoding: 'utf8' }).stdout.trim();
  if (!existsSync(join(share, 'extension', 'citus.control'))) return null;
  return spawnSync(pgConfig, ['--bindir'], { encoding: 'utf8' }).stdout.trim();
}

/** A TCP port free on loopback now, with the next two free too (the workers'). */
async function freePorts(): Promise<number> {
  const isFree = (port: number) =>
    new Promise<boolean>((done) => {
      const server = createServer();
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
  for (let port = 19700 + Math.floor(Math.random() * 2000); ; port += 3) {
    if ((await isFree(port)) && (await isFree(port + 1)) && (await isFree(port + 2))) return port;
  }
}

/**
 * Starts a coordinator on `port` and workers on the next two ports in `dir`, trust auth on
 * loopback, `fsync` off (a throw-away cluster), and adds the workers.
 * @returns the coordinator's `postgres` database URL.
 */
function startCluster(bin: string, dir: string, port: number): string {
  const psql = (p: number, sql: string) => run(`'${bin}/psql' -h 127.0.0.1 -p ${p} -U postgres -qAtc "${sql}"`);
  for (const p of [port, port + 1, port + 2]) {
    const data = join(dir, `node${p}`);
    run(`'${bin}/initdb' -D '${data}' -A trust -U postgres >/dev/null`);
    run(
      `printf "%s\\n" "shared_preload_libraries = 'citus'" "port = ${p}" "listen_addresses = '127.0.0.1'" ` +
        `"unix_socket_directories = '${dir}'" "max_connections = 300" "fsync = off" "max_prepared_transactions = 100" >> '${data}/postgresql.conf'`,
    );
    run(`'${bin}/pg_ctl' -D '${data}' -l '${dir}/node${p}.log' -w start >/dev/null`);
    psql(p, 'create extension citus');
  }
  psql(port, `select citus_set_coordinator_host('127.0.0.1', ${port})`);
  for (const p of [port + 1, port + 2]) psql(port, `select citus_add_node('127.0.0.1', ${p})`);
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** Stops every node of the cluster in `dir`. */
function stopCluster(bin: string, dir: string, port: number): void {
  for (const p of [port, port + 1, port + 2]) {
    try {
      run(`'${bin}/pg_ctl' -D '${join(dir, `node${p}`)}' -m immediate stop >/dev/null`);
    } catch {
      // A node that never started has nothing to stop.
    }
  }
}

const given = process.env.CITUS_URL;
const bin = given ? null : postgresBin();
if (!given && !bin) {
  console.log('Citus suite skipped: no CITUS_URL and the Citus extension is not installed in a local PostgreSQL 15.');
  process.exit(0);
}
let dir: string | null = null;
let port = 0;
let url = given ?? '';
if (!given) {
  dir = mkdtempSync('/tmp/inv-citus-');
  if (userInfo().uid === 0) chownSync(dir, Number(run('id -u')), Number(run('id -g')));
  port = await freePorts();
  try {
    url = startCluster(bin!, dir, port);
  } catch (err) {
    console.error(`Citus suite: the cluster did not start: ${(err as Error).message}`);
    stopCluster(bin!, dir, port);
    process.exit(2);
  }
  console.log(`Citus suite: coordinator ${url}, workers on ports ${port + 1} and ${port + 2}.`);
}
const vitest = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.citus.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CITUS_URL: url },
});
if (dir) {
  stopCluster(bin!, dir, port);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(vitest.status ?? 1);
