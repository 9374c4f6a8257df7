/**
 * `npm run bench [-- --keep] [-- --seconds 10 --connections 20]`: measures the API under load
 * on PostgreSQL (DATABASE_URL, a superuser or BYPASSRLS login).
 *
 * 1. Creates a fresh database inv_bench_<timestamp> on that server and migrates it.
 * 2. Generates one large tenant (1,000 units, 100 items, 10 garages, 100,000 unit stock rows,
 *    ~1,000,000 ledger rows over 90 days) and 1,000 small tenants, set-based (bench/generate.ts).
 * 3. Signs the large tenant's owner up and in through the auth endpoints.
 * 4. Starts the real app on a loopback port and loads it with autocannon from a worker thread:
 *    GET /api/health (baseline), GET /api/dashboard, the plus button
 *    POST /api/units/:id/inventory/:itemId/restock over many unit/item pairs, the Reports
 *    screen's cost analysis for Last Month (GET /api/reports/costs?period=month) and the
 *    assistant's 90-day Restock Recommendations with 50 records (POST /api/reports/assistant;
 *    no model is configured, so the server answers with its computed summary).
 * 5. Prints requests/s, p50/p95/p99 latency and errors, checks the budgets (dashboard p95
 *    <= 50 ms at 20 connections; restock >= 1,000 requests/s without errors; cost analysis and
 *    reorder report p95 <= 200 ms each), checks the ledger invariant after the load, and drops
 *    the database unless --keep.
 *
 * Exit codes: 0 every budget met, 1 a budget failed or the run failed, 2 bad arguments or
 * configuration.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { buildApp } from '../server/app';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { openPostgres } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { ledgerMismatchesSql } from '../server/modules/stock/rules';
import { mainThreadCpuMs, postgresCpuMs } from './bench/cpu';
import { DEFAULT_SHAPE, generateBenchData } from './bench/generate';
import { runLoad, type LoadResult, type LoadSpec } from './bench/load';

const APP_URL = 'http://localhost:3000';
const BUDGETS = { dashboardP95Ms: 50, restockRps: 1000, costsP95Ms: 200, reorderP95Ms: 200 };
/** The Reports loads, as the web's Reports screen sends them. */
const COSTS_PATH = '/api/reports/costs?period=month';
const REORDER_BODY = JSON.stringify({ type: 'reorder', days: 90, limit: 50 });

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s`;
const log = (line: string) => console.log(`[${elapsed()}] ${line}`);

function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface CpuPerRequest {
  node: number | null;
  pg: number | null;
}

function table(results: LoadResult[], cpu: CpuPerRequest[]): string {
  const head = ['load', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'errors', 'CPU ms/req: node', 'postgres'];
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '-' : fmt(Math.max(0, v), 2));
  const rows = results.map((r, i) => [
    r.name,
    String(r.connections),
    fmt(r.requestsPerSecond, 0),
    fmt(r.p50),
    fmt(r.p95),
    fmt(r.p99),
    r.responses.toLocaleString('en-US'),
    r.errors.toLocaleString('en-US'),
    ms(cpu[i]?.node),
    ms(cpu[i]?.pg),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
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
    // The benchmark signs its own sessions: a random secret does when none is configured.
    config = loadConfig({ ...process.env, APP_URL, APP_SECRET: process.env.APP_SECRET || randomBytes(32).toString('base64url') });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  if (!config.databaseUrl) {
    console.error('npm run bench needs DATABASE_URL: a PostgreSQL server on which it may create and drop a database (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
    return 2;
  }

  const name = `inv_bench_${Date.now()}`;
  const benchUrl = databaseUrlFor(config.databaseUrl, name);
  const admin = new pg.Client({ connectionString: config.databaseUrl });
  await admin.connect();
  const [server] = (await admin.query<{ version: string; shared_buffers: string }>(`select version(), current_setting('shared_buffers') as shared_buffers`)).rows;
  console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${fmt(totalmem() / 2 ** 30)} GiB memory (${fmt(freemem() / 2 ** 30)} GiB free), Node ${process.version}`);
  console.log(`Database: ${server!.version.split(' on ')[0]}, shared_buffers ${server!.shared_buffers}`);
  await admin.query(`create database ${name}`);
  log(`Created database ${name}.`);

  const pool = Math.max(connections, 10);
  const database = openPostgres(benchUrl, pool);
  const generator = new pg.Client({ connectionString: benchUrl });
  let failed = false;
  try {
    await runMigrations(database);
    log('Migrated.');
    const app = await buildApp({
      config: { ...config, appSecret: config.appSecret! },
      db: database.db,
      mailer: { send: async () => {} },
      logger: false,
    });
    const headers = { 'content-type': 'application/json', origin: APP_URL };
    const email = 'owner@large.bench.example';
    const password = randomBytes(12).toString('base64url');
    const signUp = await app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers, payload: { email, password, name: 'Large Tenant Owner' } });
    if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.statusCode} ${signUp.body}`);
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
        `${large.critical.toLocaleString('en-US')} critical), ${large.garageStockRows} garage stock rows, ${large.ledgerRows.toLocaleString('en-US')} ledger rows.`,
    );

    const signIn = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers, payload: { email, password } });
    if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.statusCode} ${signIn.body}`);
    const cookie = signIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const probe = await app.inject({ method: 'GET', url: '/api/dashboard', headers: { cookie } });
    if (probe.statusCode !== 200) throw new Error(`dashboard probe failed: ${probe.statusCode} ${probe.body}`);
    log(`Signed in as the large tenant's owner; dashboard stats: ${JSON.stringify(probe.json().stats)}.`);
    const costsProbe = await app.inject({ method: 'GET', url: COSTS_PATH, headers: { cookie } });
    if (costsProbe.statusCode !== 200) throw new Error(`cost analysis probe failed: ${costsProbe.statusCode} ${costsProbe.body}`);
    const costs = costsProbe.json<{ total_cost: number; total_items: number; trend: unknown[]; units: unknown[] }>();
    const reorderProbe = await app.inject({ method: 'POST', url: '/api/reports/assistant', headers: { ...headers, cookie }, payload: REORDER_BODY });
    if (reorderProbe.statusCode !== 200) throw new Error(`reorder report probe failed: ${reorderProbe.statusCode} ${reorderProbe.body}`);
    log(
      `Cost analysis, last month: ${costs.total_items.toLocaleString('en-US')} items used, $${costs.total_cost.toLocaleString('en-US')}, ` +
        `${costs.trend.length} days, ${costs.units.length} units; 90-day reorder report: ${reorderProbe.json<{ records: number }>().records} records.`,
    );

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

    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    log(`Server listening on ${origin} (pg pool of ${pool}); ${warmupSeconds} s warm-up, then ${seconds} s at ${connections} connections per load.`);

    const loads: Pick<LoadSpec, 'name' | 'method' | 'paths' | 'headers' | 'body'>[] = [
      { name: 'GET /api/health', method: 'GET', paths: ['/api/health'] },
      { name: 'GET /api/dashboard', method: 'GET', paths: ['/api/dashboard'], headers: { cookie } },
      { name: `POST restock (${restockPaths.length} pairs)`, method: 'POST', paths: restockPaths, headers: { cookie } },
      { name: 'GET /api/reports/costs (month)', method: 'GET', paths: [COSTS_PATH], headers: { cookie } },
      { name: 'POST assistant (reorder, 90 d)', method: 'POST', paths: ['/api/reports/assistant'], headers: { ...headers, cookie }, body: REORDER_BODY },
    ];
    const results: LoadResult[] = [];
    const cpu: CpuPerRequest[] = [];
    for (const load of loads) {
      log(`Load: ${load.name} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})…`);
      const node0 = mainThreadCpuMs();
      const pg0 = await postgresCpuMs(generator, name);
      const result = await runLoad({ ...load, origin, connections, warmupSeconds, seconds });
      const node1 = mainThreadCpuMs();
      const pg1 = await postgresCpuMs(generator, name);
      results.push(result);
      // CPU per request (warm-up included) tells which side limits throughput on this machine.
      const served = result.responses + result.warmupResponses;
      const perRequest = (before: number | null, after: number | null) => (before === null || after === null || served === 0 ? null : (after - before) / served);
      cpu.push({ node: perRequest(node0, node1), pg: perRequest(pg0, pg1) });
      log(`  ${fmt(result.requestsPerSecond, 0)} req/s, p95 ${fmt(result.p95)} ms, statuses ${JSON.stringify(result.statuses)}`);
    }
    await app.close();

    const check = new PgDialect().sqlToQuery(sql`select count(*) as n from (${ledgerMismatchesSql}) m`);
    const [mismatch] = (await generator.query<{ n: string }>(check.sql, check.params)).rows;
    log(`Ledger check after the load: ${mismatch!.n} stock rows differ from the sum of their ledger rows.`);

    const [, dashboard, restock, costsLoad, reorder] = results as [LoadResult, LoadResult, LoadResult, LoadResult, LoadResult];
    const p95Verdict = (label: string, result: LoadResult, budgetMs: number) => ({
      budget: `${label} p95 <= ${budgetMs} ms at ${connections} connections`,
      measured: `${fmt(result.p95)} ms`,
      pass: result.p95 <= budgetMs && result.errors === 0,
    });
    const verdicts = [
      p95Verdict('dashboard', dashboard, BUDGETS.dashboardP95Ms),
      {
        budget: `restock >= ${BUDGETS.restockRps.toLocaleString('en-US')} requests/s with 0 errors`,
        measured: `${fmt(restock.requestsPerSecond, 0)} req/s, ${restock.errors} errors`,
        pass: restock.requestsPerSecond >= BUDGETS.restockRps && restock.errors === 0,
      },
      p95Verdict('cost analysis (last month)', costsLoad, BUDGETS.costsP95Ms),
      p95Verdict('reorder report (90 days, 50 records)', reorder, BUDGETS.reorderP95Ms),
      { budget: 'ledger invariant after the load', measured: `${mismatch!.n} mismatches`, pass: Number(mismatch!.n) === 0 },
    ];
    console.log(`\n${table(results, cpu)}\n`);
    console.log('CPU ms/request: the server process\'s main thread, and the PostgreSQL backends of its pool (parallel query workers not included).\n');
    for (const v of verdicts) console.log(`${v.pass ? 'PASS' : 'FAIL'}  ${v.budget}: ${v.measured}`);
    failed = verdicts.some((v) => !v.pass);
  } catch (err) {
    console.error(err);
    failed = true;
  } finally {
    await generator.end().catch(() => {});
    await database.close();
    if (args.keep) {
      log(`Kept database ${name}: ${benchUrl}`);
    } else {
      await admin.query(`drop database if exists ${name} with (force)`);
      log(`Dropped database ${name}.`);
    }
    await admin.end();
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
