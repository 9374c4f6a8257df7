/**
 * `npm run bench [-- --keep] [-- --seconds 10 --warmup 3 --connections 20]`: measures the API
 * under load, served by the server as `npm start` runs it (the `serve` script's `node` command
 * on the bundle of `npm run build:server`, in a child process: its own logger, pool size and
 * configuration from the environment), on
 * PostgreSQL (DATABASE_URL, a superuser or BYPASSRLS login) and then on the embedded PGlite.
 *
 * PostgreSQL:
 * 1. Creates a fresh database inv_bench_<timestamp> on that server and migrates it.
 * 2. Signs the large tenant's owner up through the auth endpoint of a short-lived in-process app
 *    (no load is measured on it), and marks the email confirmed.
 * 3. Generates one large tenant (1,000 units, 100 items, 10 garages, 100,000 unit stock rows,
 *    ~1,000,000 ledger rows over 90 days, ~30,000 stays in the next 60 days) and 1,000 small
 *    tenants, set-based (bench/generate.ts).
 * 4. Starts the server child on the generated database (its boot migration is a no-op), signs
 *    in, reads the dashboard once and, after 5 s idle, reads its resident memory.
 * 5. Loads it with autocannon from a worker thread of this process, each load with a session
 *    signed in over HTTP just before it: GET /api/health (baseline), GET /api/dashboard, the plus
 *    button POST /api/units/:id/inventory/:itemId/restock over many unit/item pairs, more plus
 *    presses until at least 15,000 have been answered 200, GET /api/dashboard again, the
 *    Reports screen's cost analysis for Last Month (GET /api/reports/costs?period=month) and the
 *    assistant's 90-day Restock Recommendations with 50 records (POST /api/reports/assistant;
 *    no model is configured, so the server answers with its computed summary), the Forecast
 *    screen's request (GET /api/forecast?horizon=7, after one unmeasured request has learned the
 *    usage rates) and the first garage's pick list for tomorrow (GET /api/garages/:id/pick-list).
 * 6. Reads the server's peak memory, stops it, checks the ledger invariant and drops the
 *    database unless --keep.
 *
 * PGlite: seeds the demo operator (`scripts/seed-demo.ts`, as `npm run seed:demo`) into a new
 * DATA_DIR, starts the server child on it without DATABASE_URL, reads its idle memory as above,
 * then loads GET /api/dashboard at 5 connections while a second load asks GET /api/health at 1
 * connection (the embedded database runs in the server's main thread, so a slow query holds up
 * every other request).
 *
 * Prints requests/s, p50/p95/p99 latency, errors and CPU per request, the memory readings, and
 * checks the budgets (docs/performance.md "Running the benchmark"): on PostgreSQL dashboard p95
 * <= 50 ms at 20 connections, also after 15,000 plus presses; restock >= 1,000 requests/s
 * without errors; cost analysis, reorder report, forecast and pick list p95 <= 200 ms each; the ledger invariant;
 * resident memory idle <= 150 MB. On PGlite with the demo data, dashboard p95 <= 50 ms at 5
 * connections and health p95 <= 20 ms during that load. The servers' output goes to log files in
 * a temporary directory whose path is printed (kept after the run).
 *
 * Exit codes: 0 every budget met, 1 a budget failed or the run failed, 2 bad arguments or
 * configuration.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { buildApp } from '../server/app';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { openPostgres } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { ledgerMismatchesSql } from '../server/modules/stock/rules';
import { DEFAULT_SHAPE, generateBenchData } from './bench/generate';
import { runLoad, type LoadResult, type LoadSpec } from './bench/load';
import { mainThreadCpuMs, postgresCpuMs, processMemory, type Memory } from './bench/proc';
import { freePort, runNode, signIn, startServer, type ServerProcess } from './bench/server-process';
import { DEMO_EMAIL, DEMO_PASSWORD } from './demo/catalogue';

/** The product's budgets (docs/performance.md "Running the benchmark"). */
const BUDGETS = {
  dashboardP95Ms: 50,
  restockRps: 1000,
  /** Plus presses answered 200 before the second dashboard load. */
  pressesBeforeDashboardAgain: 15_000,
  costsP95Ms: 200,
  reorderP95Ms: 200,
  /** The Forecast screen's request (7 days) and one garage's pick list for tomorrow. */
  forecastP95Ms: 200,
  pickListP95Ms: 200,
  /** Resident memory of the server on PostgreSQL, idle after one sign-in and one dashboard read. */
  idleRssMB: 150,
  pgliteDashboardP95Ms: 50,
  /** GET /api/health while the PGlite dashboard load runs. */
  pgliteHealthP95Ms: 20,
};
/** Connections of the PGlite dashboard load (a small operator's office, not a thousand-unit tenant). */
const PGLITE_DASHBOARD_CONNECTIONS = 5;
/** Connections of the health load that runs beside it: one supervisor probing. */
const PGLITE_HEALTH_CONNECTIONS = 1;
/** Seconds the server sits idle before its resident memory is read. */
const IDLE_SECONDS = 5;
/** Top-up loads of plus presses tried at most (each asks for exactly the presses still missing). */
const MAX_TOP_UPS = 3;
/** The Reports loads, as the web's Reports screen sends them. */
const COSTS_PATH = '/api/reports/costs?period=month';
const REORDER_BODY = JSON.stringify({ type: 'reorder', days: 90, limit: 50 });
/** The Forecast screen's request as the web sends it on opening. */
const FORECAST_PATH = '/api/forecast?horizon=7';
/** The checkout whose server is measured (the one this script belongs to). */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s`;
const log = (line: string) => console.log(`[${elapsed()}] ${line}`);
const loadAverage = () => loadavg().map((l) => l.toFixed(2)).join(' ');

function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const fmtMB = (m: Memory | null, key: keyof Memory) => (m ? `${fmt(m[key])} MB` : 'unreadable');

/** CPU ms per response (warm-up included): the server's main thread and the PostgreSQL backends. */
interface CpuPerRequest {
  node: number | null;
  pg: number | null;
}

/** One line of the results table. */
interface Row {
  result: LoadResult;
  cpu: CpuPerRequest;
}

/** One budget's outcome. */
interface Verdict {
  budget: string;
  measured: string;
  pass: boolean;
}

function table(rows: Row[]): string {
  const head = ['load', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'errors', 'CPU ms/req: server', 'postgres'];
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '-' : fmt(Math.max(0, v), 2));
  const cells = rows.map(({ result: r, cpu }) => [
    r.name,
    String(r.connections),
    fmt(r.requestsPerSecond, 0),
    fmt(r.p50),
    fmt(r.p95),
    fmt(r.p99),
    r.responses.toLocaleString('en-US'),
    r.errors.toLocaleString('en-US'),
    ms(cpu.node),
    ms(cpu.pg),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** A p95 budget, met only without errors. */
function p95Verdict(label: string, result: LoadResult | undefined, budgetMs: number): Verdict {
  const at = result ? ` at ${result.connections} connection${result.connections === 1 ? '' : 's'}` : '';
  const budget = `${label} p95 <= ${budgetMs} ms${at}`;
  if (!result) return { budget, measured: 'not measured', pass: false };
  return { budget, measured: `${fmt(result.p95)} ms, ${result.errors} errors`, pass: result.p95 <= budgetMs && result.errors === 0 };
}

/** Environment of a server child: this process's, without a model key (the reports must answer with their computed summaries). */
function serverEnv(vars: Record<string, string>, drop: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', ...vars };
  for (const name of ['OPENAI_API_KEY', ...drop]) delete env[name];
  return env;
}

/**
 * GETs (or POSTs `body` to) `path` on the server at `url` and parses its JSON answer.
 * @throws Error when it is not answered 200.
 */
async function requestJson<T>(url: string, path: string, cookie: string, body?: string): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json', origin: url }) },
    body,
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The server's resident memory at rest: after one sign-in and one dashboard read, then
 * IDLE_SECONDS without requests.
 * @returns the reading and the dashboard's stats.
 */
async function idleMemory(server: ServerProcess, url: string, email: string, password: string) {
  const cookie = await signIn(url, email, password);
  const { stats } = await requestJson<{ stats: unknown }>(url, '/api/dashboard', cookie);
  await sleep(IDLE_SECONDS * 1000);
  return { memory: processMemory(server.pid), stats };
}

/** What a load needs besides its session: everything of a LoadSpec but the origin and the cookie. */
type LoadPlan = Omit<LoadSpec, 'origin'> & { signedIn: boolean };

/**
 * Runs the loads of `plans` at once against `server`, each signed in afresh just before (when
 * `signedIn`), and measures CPU per response over all of them together: the server's main
 * thread and, with `postgres`, the backends of the benchmark database.
 */
async function measureLoads(
  server: ServerProcess,
  url: string,
  credentials: { email: string; password: string },
  plans: LoadPlan[],
  postgres?: { client: pg.Client; database: string },
): Promise<Row[]> {
  const specs: LoadSpec[] = [];
  for (const { signedIn, ...plan } of plans) {
    const cookie = signedIn ? await signIn(url, credentials.email, credentials.password) : undefined;
    specs.push({ ...plan, origin: url, headers: { ...plan.headers, ...(cookie ? { cookie } : {}) } });
  }
  log(`Load: ${plans.map((p) => p.name).join(' + ')} (load average ${loadAverage()})…`);
  const pgCpu = () => (postgres ? postgresCpuMs(postgres.client, postgres.database) : Promise.resolve(null));
  const node0 = mainThreadCpuMs(server.pid);
  const pg0 = await pgCpu();
  const results = await Promise.all(specs.map((spec) => runLoad(spec)));
  const node1 = mainThreadCpuMs(server.pid);
  const pg1 = await pgCpu();
  // CPU per request (warm-up included) tells which side limits throughput on this machine. Loads
  // run together share one reading: it is divided by the first load's responses and printed on
  // its line only, since the server cannot say which request its CPU went to.
  const served = results[0]!.responses + results[0]!.warmupResponses;
  const perRequest = (before: number | null, after: number | null) => (before === null || after === null || served === 0 ? null : (after - before) / served);
  const cpu = { node: perRequest(node0, node1), pg: perRequest(pg0, pg1) };
  for (const r of results) log(`  ${r.name}: ${fmt(r.requestsPerSecond, 0)} req/s, p95 ${fmt(r.p95)} ms, statuses ${JSON.stringify(r.statuses)}`);
  return results.map((result, i) => ({ result, cpu: i === 0 ? cpu : { node: null, pg: null } }));
}

interface Settings {
  keep: boolean;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Directory of the servers' log files (and of the embedded database's DATA_DIR). */
  workDir: string;
}

/** The PostgreSQL part's figures; missing ones were not measured (the run failed first). */
interface PostgresFigures {
  rows: Row[];
  dashboard?: LoadResult;
  restock?: LoadResult;
  presses: number;
  dashboardAgain?: LoadResult;
  costs?: LoadResult;
  reorder?: LoadResult;
  forecast?: LoadResult;
  pickList?: LoadResult;
  ledgerMismatches?: number;
  idle?: Memory | null;
  peak?: Memory | null;
}

/** Steps 1–6 of the PostgreSQL part (see the module comment). Fills `out` as it goes. */
async function postgresPart(config: Config & { appSecret: string; databaseUrl: string }, settings: Settings, out: PostgresFigures): Promise<void> {
  const { seconds, warmupSeconds, connections } = settings;
  const name = `inv_bench_${Date.now()}`;
  const benchUrl = databaseUrlFor(config.databaseUrl, name);
  const admin = new pg.Client({ connectionString: config.databaseUrl });
  await admin.connect();
  const [dbServer] = (await admin.query<{ version: string; shared_buffers: string }>(`select version(), current_setting('shared_buffers') as shared_buffers`)).rows;
  console.log(`Database: ${dbServer!.version.split(' on ')[0]}, shared_buffers ${dbServer!.shared_buffers}`);
  await admin.query(`create database ${name}`);
  log(`Created database ${name}.`);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const generator = new pg.Client({ connectionString: benchUrl });
  let server: ServerProcess | undefined;
  try {
    const email = 'owner@large.bench.example';
    const password = randomBytes(12).toString('base64url');
    // The owner must exist before the data (it owns the large tenant), and better-auth must hash
    // its password: a sign-up through an in-process app that serves nothing else.
    const database = openPostgres(benchUrl, 2);
    try {
      await runMigrations(database);
      log('Migrated.');
      const app = await buildApp({ config: { ...config, appUrl: url }, db: database.db, mailer: { send: async () => {} }, logger: false });
      const signUp = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { 'content-type': 'application/json', origin: url },
        payload: { email, password, name: 'Large Tenant Owner' },
      });
      await app.close();
      if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.statusCode} ${signUp.body}`);
    } finally {
      await database.close();
    }
    await generator.connect();
    const [owner] = (await generator.query<{ id: string }>('update users set email_verified = true where email = $1 returning id', [email])).rows;

    log(`Generating data: a large tenant (${DEFAULT_SHAPE.units} units × ${DEFAULT_SHAPE.items} items, ${DEFAULT_SHAPE.garages} garages) and ${DEFAULT_SHAPE.smallTenants} small tenants…`);
    const largeTenantId = randomUUID();
    const counts = await generateBenchData(generator, { largeTenantId, ownerUserId: owner!.id, log: (line) => log(`  ${line}`) });
    log(
      `Generated: ${counts.tenants} tenants, ${counts.units.toLocaleString('en-US')} units, ${counts.items.toLocaleString('en-US')} items, ` +
        `${counts.unitStockRows.toLocaleString('en-US')} unit and ${counts.garageStockRows.toLocaleString('en-US')} garage stock rows, ` +
        `${counts.ledgerRows.toLocaleString('en-US')} ledger rows.`,
    );
    const large = counts.largeTenant;
    log(
      `Large tenant: ${large.units} units, ${large.unitStockRows.toLocaleString('en-US')} unit stock rows (${large.low.toLocaleString('en-US')} low, ` +
        `${large.critical.toLocaleString('en-US')} critical), ${large.garageStockRows} garage stock rows, ${large.ledgerRows.toLocaleString('en-US')} ledger rows, ` +
        `${large.upcomingStays.toLocaleString('en-US')} stays arriving in the next 60 days.`,
    );
    const [firstGarage] = (await generator.query<{ id: string }>('select id from garages where tenant_id = $1 order by name limit 1', [largeTenantId])).rows;
    const pickListPath = `/api/garages/${firstGarage!.id}/pick-list`;

    // Pairs whose garage holds plenty, so every plus press can succeed for the whole run.
    const pairs = (
      await generator.query<{ unit_id: string; item_id: string }>(
        `select s.unit_id, s.item_id
         from unit_inventory s
         join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
         join garage_inventory g on g.tenant_id = s.tenant_id and g.garage_id = u.garage_id and g.item_id = s.item_id
         where s.tenant_id = $1 and g.quantity >= 200
         order by random() limit 5000`,
        [largeTenantId],
      )
    ).rows;
    const restockPaths = pairs.map((p) => `/api/units/${p.unit_id}/inventory/${p.item_id}/restock`);

    const logFile = join(settings.workDir, 'server-postgres.log');
    server = await startServer({
      cwd: ROOT,
      env: serverEnv({ DATABASE_URL: benchUrl, APP_SECRET: config.appSecret, APP_URL: url, PORT: String(port) }),
      logFile,
    });
    log(`Server started as \`npm start\` does (pid ${server.pid}, ${url}), logging to ${logFile}.`);
    const idle = await idleMemory(server, url, email, password);
    out.idle = idle.memory;
    log(`Signed in as the large tenant's owner; dashboard stats: ${JSON.stringify(idle.stats)}; after ${IDLE_SECONDS} s idle: VmRSS ${fmtMB(out.idle, 'rssMB')}.`);
    const probeCookie = await signIn(url, email, password);
    const costs = await requestJson<{ total_cost: number; total_items: number; trend: unknown[]; units: unknown[] }>(url, COSTS_PATH, probeCookie);
    const reorder = await requestJson<{ records: number }>(url, '/api/reports/assistant', probeCookie, REORDER_BODY);
    log(
      `Cost analysis, last month: ${costs.total_items.toLocaleString('en-US')} items used, $${costs.total_cost.toLocaleString('en-US')}, ` +
        `${costs.trend.length} days, ${costs.units.length} units; 90-day reorder report: ${reorder.records} records.`,
    );
    // The first forecast learns the usage rates from 90 days of ledger (docs/product.md
    // "Forecast"); the loads then measure the forecast as people meet it, rates already learned.
    const learnStarted = Date.now();
    const forecast = await requestJson<{ properties_short: number; properties_with_stays: number }>(url, FORECAST_PATH, probeCookie);
    const pickList = await requestJson<{ date: string; properties: { lines: unknown[] }[] }>(url, pickListPath, probeCookie);
    log(
      `First forecast (usage rates learned) in ${((Date.now() - learnStarted) / 1000).toFixed(1)} s: ${forecast.properties_short} of ` +
        `${forecast.properties_with_stays} properties with stays would start a check-in short; pick list of ${pickList.date}: ` +
        `${pickList.properties.length} properties, ${pickList.properties.reduce((n, p) => n + p.lines.length, 0)} lines.`,
    );
    log(`${warmupSeconds} s warm-up, then ${seconds} s at ${connections} connections per load.`);

    const credentials = { email, password };
    const postgres = { client: generator, database: name };
    const measure = async (plan: Omit<LoadPlan, 'connections' | 'warmupSeconds' | 'seconds'> & Partial<LoadPlan>) => {
      const [row] = await measureLoads(server!, url, credentials, [{ connections, warmupSeconds, seconds, ...plan }], postgres);
      out.rows.push(row!);
      return row!.result;
    };
    const json = { 'content-type': 'application/json', origin: url };
    const restockPlan = { method: 'POST', paths: restockPaths, headers: { origin: url }, signedIn: true } as const;
    const pressed = (r: LoadResult) => (r.statuses['200'] ?? 0) + (r.warmupStatuses['200'] ?? 0);

    await measure({ name: 'GET /api/health', method: 'GET', paths: ['/api/health'], signedIn: false });
    out.dashboard = await measure({ name: 'GET /api/dashboard', method: 'GET', paths: ['/api/dashboard'], signedIn: true });
    out.restock = await measure({ name: `POST restock (${restockPaths.length} pairs)`, ...restockPlan });
    out.presses = pressed(out.restock);
    for (let i = 0; i < MAX_TOP_UPS && out.presses < BUDGETS.pressesBeforeDashboardAgain; i++) {
      const missing = BUDGETS.pressesBeforeDashboardAgain - out.presses;
      const topUp = await measure({ name: `POST restock, ${missing.toLocaleString('en-US')} more`, ...restockPlan, warmupSeconds: 0, requests: missing });
      out.presses += pressed(topUp);
    }
    log(`Plus presses answered 200 so far: ${out.presses.toLocaleString('en-US')}.`);
    out.dashboardAgain = await measure({
      name: `GET /api/dashboard after ${out.presses.toLocaleString('en-US')} presses`,
      method: 'GET',
      paths: ['/api/dashboard'],
      signedIn: true,
    });
    out.costs = await measure({ name: 'GET /api/reports/costs (month)', method: 'GET', paths: [COSTS_PATH], signedIn: true });
    out.reorder = await measure({ name: 'POST assistant (reorder, 90 d)', method: 'POST', paths: ['/api/reports/assistant'], headers: json, body: REORDER_BODY, signedIn: true });
    out.forecast = await measure({ name: 'GET /api/forecast (7 days)', method: 'GET', paths: [FORECAST_PATH], signedIn: true });
    out.pickList = await measure({ name: 'GET pick list (tomorrow)', method: 'GET', paths: [pickListPath], signedIn: true });

    out.peak = processMemory(server.pid);
    await server.stop();
    const check = new PgDialect().sqlToQuery(sql`select count(*) as n from (${ledgerMismatchesSql}) m`);
    const [mismatch] = (await generator.query<{ n: string }>(check.sql, check.params)).rows;
    out.ledgerMismatches = Number(mismatch!.n);
    log(`Ledger check after the load: ${out.ledgerMismatches} stock rows differ from the sum of their ledger rows.`);
  } finally {
    await server?.stop();
    await generator.end().catch(() => {});
    if (settings.keep) {
      log(`Kept database ${name}: ${benchUrl}`);
    } else {
      await admin.query(`drop database if exists ${name} with (force)`);
      log(`Dropped database ${name}.`);
    }
    await admin.end();
  }
}

/** The PGlite part's figures; missing ones were not measured. */
interface PgliteFigures {
  rows: Row[];
  dashboard?: LoadResult;
  health?: LoadResult;
  idle?: Memory | null;
  peak?: Memory | null;
}

/** The PGlite part (see the module comment). Fills `out` as it goes. */
async function pglitePart(settings: Settings, out: PgliteFigures): Promise<void> {
  const dataDir = join(settings.workDir, 'pglite-data');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // As shipped without DATABASE_URL: the embedded database and the secret it generates in DATA_DIR.
  const env = serverEnv({ DATA_DIR: dataDir, APP_URL: url, PORT: String(port) }, ['DATABASE_URL', 'APP_SECRET']);
  let server: ServerProcess | undefined;
  try {
    log(`Seeding the demo operator into an embedded database in ${dataDir} (npm run seed:demo)…`);
    runNode(ROOT, ['scripts/seed-demo.ts'], env);
    const logFile = join(settings.workDir, 'server-pglite.log');
    server = await startServer({ cwd: ROOT, env, logFile });
    log(`Server started on the embedded database (pid ${server.pid}, ${url}), logging to ${logFile}.`);
    const idle = await idleMemory(server, url, DEMO_EMAIL, DEMO_PASSWORD);
    out.idle = idle.memory;
    log(`Signed in as the demo operator; dashboard stats: ${JSON.stringify(idle.stats)}; after ${IDLE_SECONDS} s idle: VmRSS ${fmtMB(out.idle, 'rssMB')}.`);

    const { warmupSeconds, seconds } = settings;
    const rows = await measureLoads(server, url, { email: DEMO_EMAIL, password: DEMO_PASSWORD }, [
      { name: 'PGlite: GET /api/dashboard (demo)', method: 'GET', paths: ['/api/dashboard'], connections: PGLITE_DASHBOARD_CONNECTIONS, warmupSeconds, seconds, signedIn: true },
      { name: 'PGlite: GET /api/health meanwhile', method: 'GET', paths: ['/api/health'], connections: PGLITE_HEALTH_CONNECTIONS, warmupSeconds, seconds, signedIn: false },
    ]);
    out.rows.push(...rows);
    [out.dashboard, out.health] = rows.map((r) => r.result);
    out.peak = processMemory(server.pid);
  } finally {
    await server?.stop();
    if (settings.keep) log(`Kept the embedded database in ${dataDir}.`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        keep: { type: 'boolean', default: false },
        seconds: { type: 'string', default: '10' },
        warmup: { type: 'string', default: '3' },
        connections: { type: 'string', default: '20' },
      },
    }).values;
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const seconds = Number(args.seconds);
  const warmupSeconds = Number(args.warmup);
  const connections = Number(args.connections);
  if (![seconds, warmupSeconds, connections].every((n) => Number.isInteger(n) && n >= 0) || seconds === 0 || connections === 0) {
    console.error('--seconds, --warmup and --connections take whole numbers (seconds and connections at least 1).');
    return 2;
  }

  let config: Config;
  try {
    // The benchmark's PostgreSQL server signs its own sessions: a random secret does when none is configured.
    config = loadConfig({ ...process.env, APP_SECRET: process.env.APP_SECRET || randomBytes(32).toString('base64url') });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const { databaseUrl, appSecret } = config;
  if (!databaseUrl || !appSecret) {
    console.error('npm run bench needs DATABASE_URL: a PostgreSQL server on which it may create and drop a database (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
    return 2;
  }

  const workDir = mkdtempSync(join(tmpdir(), 'inv-bench-'));
  const settings: Settings = { keep: args.keep, seconds, warmupSeconds, connections, workDir };
  console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${fmt(totalmem() / 2 ** 30)} GiB memory (${fmt(freemem() / 2 ** 30)} GiB free), Node ${process.version}`);
  console.log(`Server logs: ${workDir}`);

  const postgres: PostgresFigures = { rows: [], presses: 0 };
  const pglite: PgliteFigures = { rows: [] };
  let runFailed = false;
  try {
    await postgresPart({ ...config, databaseUrl, appSecret }, settings, postgres);
  } catch (err) {
    console.error(err);
    runFailed = true;
  }
  try {
    await pglitePart(settings, pglite);
  } catch (err) {
    console.error(err);
    runFailed = true;
  }

  const restock = postgres.restock;
  const againBudget = `dashboard after ${BUDGETS.pressesBeforeDashboardAgain.toLocaleString('en-US')} plus presses`;
  const again = p95Verdict(againBudget, postgres.dashboardAgain, BUDGETS.dashboardP95Ms);
  const verdicts: Verdict[] = [
    p95Verdict('dashboard', postgres.dashboard, BUDGETS.dashboardP95Ms),
    {
      budget: `restock >= ${BUDGETS.restockRps.toLocaleString('en-US')} requests/s with 0 errors`,
      measured: restock ? `${fmt(restock.requestsPerSecond, 0)} req/s, ${restock.errors} errors` : 'not measured',
      pass: !!restock && restock.requestsPerSecond >= BUDGETS.restockRps && restock.errors === 0,
    },
    {
      ...again,
      measured: `${again.measured} (after ${postgres.presses.toLocaleString('en-US')} presses answered 200)`,
      pass: again.pass && postgres.presses >= BUDGETS.pressesBeforeDashboardAgain,
    },
    p95Verdict('cost analysis (last month)', postgres.costs, BUDGETS.costsP95Ms),
    p95Verdict('reorder report (90 days, 50 records)', postgres.reorder, BUDGETS.reorderP95Ms),
    p95Verdict('forecast (7 days)', postgres.forecast, BUDGETS.forecastP95Ms),
    p95Verdict("one garage's pick list for tomorrow", postgres.pickList, BUDGETS.pickListP95Ms),
    {
      budget: 'ledger invariant after the load',
      measured: postgres.ledgerMismatches === undefined ? 'not checked' : `${postgres.ledgerMismatches} mismatches`,
      pass: postgres.ledgerMismatches === 0,
    },
    {
      budget: `server resident memory on PostgreSQL, idle <= ${BUDGETS.idleRssMB} MB`,
      measured: fmtMB(postgres.idle ?? null, 'rssMB'),
      pass: !!postgres.idle && postgres.idle.rssMB <= BUDGETS.idleRssMB,
    },
    p95Verdict('PGlite (demo data): dashboard', pglite.dashboard, BUDGETS.pgliteDashboardP95Ms),
    p95Verdict('PGlite (demo data): health during the dashboard load', pglite.health, BUDGETS.pgliteHealthP95Ms),
  ];

  console.log(`\n${table([...postgres.rows, ...pglite.rows])}\n`);
  console.log(
    "CPU ms/request: the server process's main thread (on PGlite the database runs there too), and the PostgreSQL backends of its pool " +
      '(parallel query workers not included). Loads run together share one reading, on their first line.',
  );
  console.log(`Server resident memory (VmRSS after one sign-in, one dashboard read and ${IDLE_SECONDS} s idle; VmHWM, the peak, after the loads):`);
  console.log(`  PostgreSQL: idle ${fmtMB(postgres.idle ?? null, 'rssMB')}, peak ${fmtMB(postgres.peak ?? null, 'peakMB')}`);
  console.log(`  PGlite:     idle ${fmtMB(pglite.idle ?? null, 'rssMB')}, peak ${fmtMB(pglite.peak ?? null, 'peakMB')}`);
  const logs = ['server-postgres.log', 'server-pglite.log'].map((f) => {
    try {
      return `${join(workDir, f)} (${fmt(statSync(join(workDir, f)).size / 1e6)} MB)`;
    } catch {
      return `${join(workDir, f)} (not written)`;
    }
  });
  console.log(`Server logs: ${logs.join(', ')}`);
  console.log(`Load average at the end: ${loadAverage()}; the whole run took ${elapsed().trim()}.\n`);
  for (const v of verdicts) console.log(`${v.pass ? 'PASS' : 'FAIL'}  ${v.budget}: ${v.measured}`);
  return runFailed || verdicts.some((v) => !v.pass) ? 1 : 0;
}

process.exitCode = await main();
