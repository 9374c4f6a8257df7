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
 * 3. Generates one large tenant (1,000 units, 100 items, 10 garages holding 1,500–3,000 of most
 *    items, 100,000 unit stock rows of which ~13,000 below minimum, ~1,000,000 ledger rows over
 *    90 days, ~30,000 stays in the next 60 days) and 1,000 small tenants, set-based
 *    (bench/generate.ts).
 * 4. Starts the server child on the generated database (its boot migration is a no-op), signs
 *    in, reads the dashboard once and, after 5 s idle, reads its resident memory.
 * 5. Loads it with autocannon from a worker thread of this process, each load with a session
 *    signed in over HTTP just before it, a warm-up (--warmup s) and a measured run (--seconds s)
 *    at --connections unless said otherwise:
 *    a. GET /api/health, the machine's baseline;
 *    b. GET /api/dashboard;
 *    c. the plus taps as the web sends them, POST /api/units/:id/inventory/:itemId/transfer
 *       { quantity: 1–3 } over 5,000 unit/item pairs at random (bench/stock-loads.ts), then
 *       more transfers (a load of exactly the number missing, no warm-up) until at least 15,000
 *       have been answered 200, warm-ups included;
 *    d. GET /api/dashboard again;
 *    e. the Reports screen's cost analysis for Last Month (GET /api/reports/costs?period=month)
 *       and the assistant's 90-day Restock Recommendations with 50 records (POST
 *       /api/reports/assistant; no model is configured, so the server answers with its computed
 *       summary);
 *    f. the Forecast screen's request (GET /api/forecast?horizon=7, after one unmeasured
 *       request has learned the usage rates) and the first garage's pick list for tomorrow
 *       (GET /api/garages/:id/pick-list);
 *    g. the minus taps, POST /api/units/:id/inventory/:itemId/consume { quantity: 1–3 }, over
 *       the same pairs;
 *    h. a count of 31 rows at a unit, POST /api/units/:id/count, over 200 units whose stock is
 *       read first (GET /api/units/:id); each unit's two counts (3 rows found different, then
 *       back) are sent in turn, so every `expected` is the stock;
 *    i. Restock to minimum, POST /api/units/:id/restock-to-minimum {}, once for every unit with
 *       a row below minimum its garage can fill (~1,000): 10 % as the warm-up, the rest
 *       measured; prints how many rows and pieces moved;
 *    j. Mark as delivered of a pick list's property, POST /api/units/:id/pick-list/deliver with
 *       20 lines of 1–4 pieces, items the unit has a row of and its garage holds >= 1,000 of;
 *    k. GET /api/health again.
 *    After each stock load it prints the ledger rows written at units.
 * 6. Reads the server's peak memory, stops it, checks the ledger invariant and drops the
 *    database unless --keep.
 *
 * PGlite: seeds the demo operator (`scripts/seed-demo.ts`, as `npm run seed:demo`) into a new
 * DATA_DIR, starts the server child on it without DATABASE_URL, reads its idle memory as above,
 * then loads GET /api/dashboard at 5 connections while a second load asks GET /api/health at 1
 * connection (the embedded database runs in the server's main thread, so a slow query holds up
 * every other request).
 *
 * Prints requests/s, p50/p95/p99 latency, errors and CPU per request, the memory readings and
 * the health route's figures, and checks the budgets of bench/budgets.ts (docs/performance.md
 * "Budgets", decision 058), each with its margin. Every speed budget is judged by its ratio to
 * GET /api/health measured at step 5a: a throughput as a share of health's requests/s (the taps
 * and the outbox's 200 changes sent in order), a latency as a multiple of health's p95 (the
 * dashboard, also after 15,000 transfers; the cost analysis, reorder report, forecast and pick
 * list; a count of 31 rows, Restock to minimum, a delivery of 20 lines; on PGlite the demo
 * dashboard and health beside it), every one without errors (a 409 is one); the absolute figure
 * each was first set as is printed beside it. The ledger invariant and resident memory idle
 * <= 150 MB are judged absolutely. The servers' output goes to log files in a temporary
 * directory whose path is printed (kept after the run).
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
import { databaseUrlFor } from '../server/db/pg-url';
import { freePort, runNode, signIn, startServer, type ServerProcess } from './bench/server-process';
import {
  belowMinimum,
  COUNT_ROWS,
  countTargets,
  databaseNow,
  DELIVERY_LINES,
  deliveryRequests,
  restockToMinimumRequests,
  stockPairs,
  tapRequests,
  unitLedgerSince,
  type StockPair,
  type UnitLedger,
} from './bench/stock-loads';
import { BUDGETS, HEALTH_REFERENCE, OFFLINE_QUEUE_CHANGES } from './bench/budgets';
import { floorMargin, fmt, grouped, memoryVerdict, queueVerdict, ratioVerdict, verdictLines, zeroVerdict, type HealthBaseline, type Verdict } from './bench/verdicts';
import { DEMO_EMAIL, DEMO_PASSWORD } from './demo/catalogue';

/** Connections of the PGlite dashboard load (a small operator's office, not a thousand-unit tenant). */
const PGLITE_DASHBOARD_CONNECTIONS = 5;
/** Connections of the health load that runs beside it: one supervisor probing. */
const PGLITE_HEALTH_CONNECTIONS = 1;
/** Seconds the server sits idle before its resident memory is read. */
const IDLE_SECONDS = 5;
/** Top-up loads of transfers tried at most (each asks for exactly the transfers still missing). */
const MAX_TOP_UPS = 3;
/** Share of the Restock to minimum units sent as its warm-up (each unit is filled once). */
const RESTOCK_TO_MINIMUM_WARMUP_SHARE = 0.1;
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

/** A load of `method` on one path at random, e.g. GET /api/health (any LoadPlan fields but its source may follow). */
const onPath = (method: 'GET' | 'POST', path: string, body?: string) => ({ method, source: { kind: 'random' as const, requests: [{ path, body }] } });

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
  /** GET /api/health before the other loads, and after the stock commands. */
  healthStart?: LoadResult;
  healthEnd?: LoadResult;
  dashboard?: LoadResult;
  /** The plus taps' transfers, and how many transfers were answered 200 in all (top-ups and warm-ups included). */
  transfer?: LoadResult;
  transfers: number;
  dashboardAgain?: LoadResult;
  costs?: LoadResult;
  reorder?: LoadResult;
  forecast?: LoadResult;
  pickList?: LoadResult;
  consume?: LoadResult;
  count?: LoadResult;
  restockToMinimum?: LoadResult;
  /** What Restock to minimum moved, in words (rows filled, pieces, units). */
  restockToMinimumMoved?: string;
  delivery?: LoadResult;
  offlineQueue?: LoadResult;
  ledgerMismatches?: number;
  idle?: Memory | null;
  peak?: Memory | null;
}

/** A load as postgresPart measures it: the run's connections, warm-up and seconds unless given. */
type MeasurePlan = Omit<LoadPlan, 'connections' | 'warmupSeconds' | 'seconds'> & Partial<LoadPlan>;

/** What the stock loads share: how to measure a load, the generator's connection, the large tenant, a signed-in cookie. */
interface StockContext {
  measure: (plan: MeasurePlan) => Promise<LoadResult>;
  /** The benchmark's own connection to the database (bypasses row-level security). */
  client: pg.Client;
  tenantId: string;
  url: string;
  /** The Cookie header of the owner signed in, for the reads that prepare a load. */
  cookie: string;
  /** Headers of a JSON POST as the web sends it. */
  json: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  out: PostgresFigures;
}

/** Responses answered 200, warm-up included. */
const answered200 = (r: LoadResult) => (r.statuses['200'] ?? 0) + (r.warmupStatuses['200'] ?? 0);

/** "1,234 ledger rows (restock 1,234), +2,468 pieces": what a load wrote at the units. */
function ledgerSummary(ledger: UnitLedger): string {
  const types = Object.entries(ledger.byType).map(([type, n]) => `${type} ${grouped(n)}`).join(', ');
  return `${grouped(ledger.rows)} ledger rows${types ? ` (${types})` : ''}, ${ledger.pieces >= 0 ? '+' : ''}${grouped(ledger.pieces)} pieces`;
}

/**
 * Runs `plan` and logs the ledger rows it wrote at the tenant's units.
 * @returns the load's result and those rows.
 */
async function measureStockLoad(s: StockContext, plan: MeasurePlan): Promise<{ result: LoadResult; ledger: UnitLedger }> {
  const since = await databaseNow(s.client);
  const result = await s.measure(plan);
  const ledger = await unitLedgerSince(s.client, s.tenantId, since);
  log(`  written at units, warm-up included: ${ledgerSummary(ledger)}.`);
  return { result, ledger };
}

/**
 * Step 5c: the plus taps as the web sends them (a transfer of 1–3 pieces over `pairs`), then
 * top-ups of exactly the transfers missing until BUDGETS.transfersBeforeDashboardAgain has been
 * reached by the transfers answered 200, warm-ups included.
 */
async function measurePlusTaps(s: StockContext, pairs: StockPair[]): Promise<void> {
  const plan = { method: 'POST', source: { kind: 'random', requests: tapRequests(pairs, 'transfer') }, headers: s.json, signedIn: true } as const;
  s.out.transfer = (await measureStockLoad(s, { name: `POST transfer 1–3 (${grouped(pairs.length)} pairs)`, ...plan })).result;
  s.out.transfers = answered200(s.out.transfer);
  for (let i = 0; i < MAX_TOP_UPS && s.out.transfers < BUDGETS.transfersBeforeDashboardAgain.absolute; i++) {
    const missing = BUDGETS.transfersBeforeDashboardAgain.absolute - s.out.transfers;
    // autocannon gives every connection at least one request.
    const topUp = await measureStockLoad(s, { name: `POST transfer, ${grouped(missing)} more`, ...plan, warmupSeconds: 0, measuredRequests: Math.max(missing, s.connections) });
    s.out.transfers += answered200(topUp.result);
  }
  log(`Transfers answered 200 so far: ${grouped(s.out.transfers)}.`);
}

/** Step 5g: the minus taps as the web sends them (1–3 pieces used) over the plus taps' pairs. */
async function measureMinusTaps(s: StockContext, pairs: StockPair[]): Promise<void> {
  const source = { kind: 'random', requests: tapRequests(pairs, 'consume') } as const;
  s.out.consume = (await measureStockLoad(s, { name: `POST consume 1–3 (${grouped(pairs.length)} pairs)`, method: 'POST', source, headers: s.json, signedIn: true })).result;
}

/** Step 5h: counts of COUNT_ROWS rows, over units whose stock is read first (bench/stock-loads.ts countTargets). */
async function measureCount(s: StockContext): Promise<void> {
  const targets = await countTargets(s.client, s.tenantId, s.url, s.cookie);
  log(`Read the stock of ${targets.length} units (GET /api/units/:id) for their counts of ${COUNT_ROWS} rows.`);
  const name = `POST count, ${COUNT_ROWS} rows (${targets.length} units)`;
  s.out.count = (await measureStockLoad(s, { name, method: 'POST', source: { kind: 'alternating', targets }, headers: s.json, signedIn: true })).result;
}

/**
 * Step 5i: Restock to minimum of every unit that has a row below minimum its garage can fill,
 * each once: the first RESTOCK_TO_MINIMUM_WARMUP_SHARE as the warm-up (none with --warmup 0),
 * the rest measured. Records how many rows and pieces moved.
 * @throws Error when too few units are left to measure at the run's connections.
 */
async function measureRestockToMinimum(s: StockContext): Promise<void> {
  const before = await belowMinimum(s.client, s.tenantId);
  const units = before.unitIds.length;
  const warmupRequests = s.warmupSeconds > 0 ? Math.max(s.connections, Math.round(units * RESTOCK_TO_MINIMUM_WARMUP_SHARE)) : 0;
  if (units - warmupRequests < s.connections) throw new Error(`Restock to minimum: only ${units} units have a row below minimum to fill`);
  log(`Rows below minimum: ${grouped(before.rows)}, of which the garage holds some for ${grouped(before.fillableRows)}, at ${grouped(units)} units.`);
  const { result, ledger } = await measureStockLoad(s, {
    name: `POST restock-to-minimum (${grouped(units - warmupRequests)} units)`,
    method: 'POST',
    source: { kind: 'each-once', requests: restockToMinimumRequests(before.unitIds) },
    headers: s.json,
    signedIn: true,
    warmupRequests,
    measuredRequests: units - warmupRequests,
  });
  const after = await belowMinimum(s.client, s.tenantId);
  const filled = ledger.byType.restock ?? 0;
  s.out.restockToMinimum = result;
  s.out.restockToMinimumMoved =
    `${grouped(filled)} rows filled (${fmt(filled / units)} a request), ${grouped(ledger.pieces)} pieces, at ${grouped(units)} units; ` +
    `rows below minimum ${grouped(before.rows)} before, ${grouped(after.rows)} after`;
  log(`Restock to minimum moved: ${s.out.restockToMinimumMoved}.`);
}

/** Step 5j: pick-list deliveries of DELIVERY_LINES lines (bench/stock-loads.ts deliveryRequests). */
async function measureDelivery(s: StockContext): Promise<void> {
  const requests = await deliveryRequests(s.client, s.tenantId);
  const name = `POST pick-list deliver, ${DELIVERY_LINES} lines`;
  s.out.delivery = (await measureStockLoad(s, { name, method: 'POST', source: { kind: 'random', requests }, headers: s.json, signedIn: true })).result;
}

/**
 * Step 5k: a phone's outbox sent when the network is back: OFFLINE_QUEUE_CHANGES plus and minus
 * taps in turn over `pairs`, on one connection, each sent once and only after the answer to the
 * one before (web/lib/outbox/outbox.ts), each with its Idempotency-Key (bench/load-worker.ts).
 */
async function measureOfflineQueue(s: StockContext, pairs: StockPair[]): Promise<void> {
  const plus = tapRequests(pairs, 'transfer');
  const minus = tapRequests(pairs, 'consume');
  const requests = Array.from({ length: OFFLINE_QUEUE_CHANGES }, (_, i) => (i % 2 === 0 ? plus : minus)[Math.floor(i / 2) % plus.length]!);
  const name = `outbox of ${OFFLINE_QUEUE_CHANGES} taps, in order`;
  s.out.offlineQueue = (
    await measureStockLoad(s, {
      name,
      method: 'POST',
      source: { kind: 'each-once', requests },
      headers: s.json,
      signedIn: true,
      connections: 1,
      warmupSeconds: 0,
      warmupRequests: 0,
      measuredRequests: OFFLINE_QUEUE_CHANGES,
    })
  ).result;
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
        `${large.critical.toLocaleString('en-US')} critical, ${grouped(large.belowMinimum)} below minimum), ${large.garageStockRows} garage stock rows, ` +
        `${large.ledgerRows.toLocaleString('en-US')} ledger rows, ` +
        `${large.upcomingStays.toLocaleString('en-US')} stays arriving in the next 60 days.`,
    );
    const [firstGarage] = (await generator.query<{ id: string }>('select id from garages where tenant_id = $1 order by name limit 1', [largeTenantId])).rows;
    const pickListPath = `/api/garages/${firstGarage!.id}/pick-list`;

    // Unit/item pairs whose garage holds plenty, so every plus tap of the run can be answered 200.
    const pairs = await stockPairs(generator, largeTenantId);

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
    const measure = async (plan: MeasurePlan) => {
      const [row] = await measureLoads(server!, url, credentials, [{ connections, warmupSeconds, seconds, ...plan }], postgres);
      out.rows.push(row!);
      return row!.result;
    };
    const json = { 'content-type': 'application/json', origin: url };
    const stock: StockContext = { measure, client: generator, tenantId: largeTenantId, url, cookie: probeCookie, json, connections, warmupSeconds, out };

    out.healthStart = await measure({ name: 'GET /api/health', ...onPath('GET', '/api/health'), signedIn: false });
    out.dashboard = await measure({ name: 'GET /api/dashboard', ...onPath('GET', '/api/dashboard'), signedIn: true });
    await measurePlusTaps(stock, pairs);
    out.dashboardAgain = await measure({ name: `GET /api/dashboard after ${grouped(out.transfers)} transfers`, ...onPath('GET', '/api/dashboard'), signedIn: true });
    out.costs = await measure({ name: 'GET /api/reports/costs (month)', ...onPath('GET', COSTS_PATH), signedIn: true });
    out.reorder = await measure({ name: 'POST assistant (reorder, 90 d)', ...onPath('POST', '/api/reports/assistant', REORDER_BODY), headers: json, signedIn: true });
    out.forecast = await measure({ name: 'GET /api/forecast (7 days)', ...onPath('GET', FORECAST_PATH), signedIn: true });
    out.pickList = await measure({ name: 'GET pick list (tomorrow)', ...onPath('GET', pickListPath), signedIn: true });
    await measureMinusTaps(stock, pairs);
    await measureCount(stock);
    await measureRestockToMinimum(stock);
    await measureDelivery(stock);
    await measureOfflineQueue(stock, pairs);
    out.healthEnd = await measure({ name: 'GET /api/health again', ...onPath('GET', '/api/health'), signedIn: false });

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
      { name: 'PGlite: GET /api/dashboard (demo)', ...onPath('GET', '/api/dashboard'), connections: PGLITE_DASHBOARD_CONNECTIONS, warmupSeconds, seconds, signedIn: true },
      { name: 'PGlite: GET /api/health meanwhile', ...onPath('GET', '/api/health'), connections: PGLITE_HEALTH_CONNECTIONS, warmupSeconds, seconds, signedIn: false },
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

/**
 * The health route's figures the ratios are taken to: GET /api/health on PostgreSQL at the run's
 * connections, before the other loads (decision 058); undefined when it was not measured.
 */
function healthBaselineOf(postgres: PostgresFigures): HealthBaseline | undefined {
  const h = postgres.healthStart;
  return h && h.responses > 0 ? { requestsPerSecond: h.requestsPerSecond, p95Ms: h.p95, connections: h.connections } : undefined;
}

/**
 * Every budget's verdict with its margin: the speed budgets judged by their ratio to the health
 * route measured before the loads (healthBaselineOf), their absolute figure printed beside it;
 * memory, the ledger and the transfers' count judged absolutely (scripts/bench/budgets.ts).
 */
function budgetVerdicts(postgres: PostgresFigures, pglite: PgliteFigures): Verdict[] {
  const health = healthBaselineOf(postgres);
  const transfersNeeded = BUDGETS.transfersBeforeDashboardAgain.absolute;
  const again = ratioVerdict(`dashboard after ${grouped(transfersNeeded)} transfers`, BUDGETS.dashboardAgain, postgres.dashboardAgain, health);
  const moved = postgres.restockToMinimumMoved ? `; ${postgres.restockToMinimumMoved}` : '';
  return [
    ratioVerdict('dashboard', BUDGETS.dashboard, postgres.dashboard, health),
    ratioVerdict('transfer (plus taps, 1–3 pieces)', BUDGETS.transfer, postgres.transfer, health),
    {
      ...again,
      measured: `${again.measured}; after ${grouped(postgres.transfers)} transfers answered 200 / ${grouped(transfersNeeded)} = ${floorMargin(postgres.transfers, transfersNeeded)}`,
      pass: again.pass && postgres.transfers >= transfersNeeded,
    },
    ratioVerdict('cost analysis (last month)', BUDGETS.costs, postgres.costs, health),
    ratioVerdict('reorder report (90 days, 50 records)', BUDGETS.reorder, postgres.reorder, health),
    ratioVerdict('forecast (7 days)', BUDGETS.forecast, postgres.forecast, health),
    ratioVerdict("one garage's pick list for tomorrow", BUDGETS.pickList, postgres.pickList, health),
    ratioVerdict('consume (minus taps, 1–3 pieces)', BUDGETS.consume, postgres.consume, health),
    ratioVerdict(`count of ${COUNT_ROWS} rows at a unit`, BUDGETS.count, postgres.count, health),
    ratioVerdict('Restock to minimum (whole unit)', BUDGETS.restockToMinimum, postgres.restockToMinimum, health, moved),
    ratioVerdict(`pick-list delivery of ${DELIVERY_LINES} lines`, BUDGETS.delivery, postgres.delivery, health),
    queueVerdict('outbox sent when the network is back', BUDGETS.offlineQueue, postgres.offlineQueue, OFFLINE_QUEUE_CHANGES, health),
    zeroVerdict('ledger invariant after the loads', postgres.ledgerMismatches, 'stock rows differing from the sum of their ledger rows'),
    memoryVerdict('server resident memory on PostgreSQL, idle', postgres.idle?.rssMB, BUDGETS.idleMemory.absolute),
    ratioVerdict('PGlite (demo data): dashboard', BUDGETS.pgliteDashboard, pglite.dashboard, health),
    ratioVerdict('PGlite (demo data): health during the dashboard load', BUDGETS.pgliteHealth, pglite.health, health),
  ];
}

/** The health route's figures in this run: the baseline the ratios are taken to, and its later readings. */
function healthBaseline(postgres: PostgresFigures, pglite: PgliteFigures): string {
  const rps = (r: LoadResult | undefined) => (r ? `${fmt(r.requestsPerSecond, 0)} req/s (p95 ${fmt(r.p95, 2)} ms)` : 'not measured');
  const connections = postgres.healthStart?.connections ?? postgres.healthEnd?.connections;
  return (
    `Health route GET /api/health, this machine's baseline in this run: on PostgreSQL at ${connections ?? '-'} connections ` +
    `${rps(postgres.healthStart)} before the loads (every ratio below is taken to it), ${rps(postgres.healthEnd)} after the stock commands; ` +
    `on PGlite at ${PGLITE_HEALTH_CONNECTIONS} connection beside the dashboard load ${rps(pglite.health)}. ` +
    `The budgets' ratios were set from ${grouped(HEALTH_REFERENCE.requestsPerSecond)} req/s and a p95 of ${fmt(HEALTH_REFERENCE.p95Ms)} ms (scripts/bench/budgets.ts).`
  );
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

  const postgres: PostgresFigures = { rows: [], transfers: 0 };
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

  const verdicts = budgetVerdicts(postgres, pglite);
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
  console.log(healthBaseline(postgres, pglite));
  for (const line of verdictLines(verdicts)) console.log(line);
  return runFailed || verdicts.some((v) => !v.pass) ? 1 : 0;
}

process.exitCode = await main();
