/**
 * `npm run bench:web [-- --runs 3] [-- --app-dir <dir>] [-- --no-build] [-- --preset mobile|desktop]
 * [-- --report-dir <dir>]`: Lighthouse (the
 * performance category, mobile and desktop presets) on /login and on the demo operator's
 * dashboard, against a locally started server, in Chromium (decision 016).
 *
 * 1. Builds the web app (`vite build` in the app directory) unless --no-build.
 * 2. Seeds the demo operator (`scripts/seed-demo.ts`) into a new embedded database in a
 *    temporary DATA_DIR and starts the server on it (`node --import tsx server/main.ts`) on a
 *    free loopback port, as `npm start` does.
 * 3. Signs the demo operator in through `POST /api/auth/sign-in/email` before each dashboard
 *    run; the dashboard is measured with that session cookie, /login without one.
 * 4. Runs Lighthouse `--runs` times per page and preset, each a cold load (Lighthouse clears
 *    the cache between runs; mobile: simulated slow 4G and 4x slower CPU), and prints each run
 *    and the median: score, LCP, TBT, FCP, bytes transferred and requests.
 * 5. Stops the server and Chromium and deletes the data directory.
 *
 * --preset measures one preset only. --report-dir writes each run's whole Lighthouse result there
 * (`<preset>-<page>-<run>.json`) to see which requests and tasks a score is made of.
 * --app-dir measures another checkout of the app (e.g. an older commit with this repository's
 * node_modules linked into it), so figures before and after a change come from the same
 * script. Scores depend on the machine's CPU: the load average is printed beside them.
 * Chromium: /usr/bin/chromium, or CHROMIUM_PATH.
 *
 * Exit codes: 0 measured, 1 a step failed, 2 bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { freePort, runNode, signIn, startServer, type ServerProcess } from './bench/server-process';

const DEMO_EMAIL = 'bench-web@example.com';
const DEMO_PASSWORD = 'seaside-bench-2026';
/** Chromium's flags where the machine has no display, GPU or user namespace sandbox. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** One Lighthouse run's figures. */
export interface RunFigures {
  /** Performance score, 0-100. */
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  /** Bytes transferred over the network for the page load. */
  bytes: number;
  requests: number;
}

/** The median of `values` (the middle one, or the mean of the two middle ones). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of each figure over `runs`. */
export function medianFigures(runs: RunFigures[]): RunFigures {
  const pick = (key: keyof RunFigures) => median(runs.map((r) => r[key]));
  return { score: pick('score'), lcpMs: pick('lcpMs'), tbtMs: pick('tbtMs'), fcpMs: pick('fcpMs'), bytes: pick('bytes'), requests: pick('requests') };
}

/** One Lighthouse run of `url` on the Chromium listening on `port`. */
async function measure(url: string, port: number, preset: 'mobile' | 'desktop', cookie?: string, reportFile?: string): Promise<RunFigures> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  if (reportFile) writeFileSync(reportFile, JSON.stringify(lhr));
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined)?.items?.length ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    fcpMs: audit('first-contentful-paint'),
    bytes: audit('total-byte-weight'),
    requests,
  };
}

/** `measure`, tried again (up to 3 times in all) when Lighthouse could not read its trace. */
async function measureWithRetries(...args: Parameters<typeof measure>): Promise<RunFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(...args);
    } catch (err) {
      if (attempt === 3) throw err;
      console.log(`  (${(err as Error).message}; trying again)`);
    }
  }
}

const row = (label: string, f: RunFigures) =>
  `| ${label} | ${f.score} | ${(f.lcpMs / 1000).toFixed(2)} s | ${Math.round(f.tbtMs)} ms | ${(f.fcpMs / 1000).toFixed(2)} s | ${(f.bytes / 1000).toFixed(1)} kB | ${f.requests} |`;

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'app-dir': { type: 'string', default: '.' }, 'no-build': { type: 'boolean', default: false }, preset: { type: 'string' }, 'report-dir': { type: 'string' } } }).values;
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const runs = Number(args.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error('--runs must be a positive whole number');
    return 2;
  }
  const presets: ('mobile' | 'desktop')[] | undefined =
    args.preset === undefined ? ['mobile', 'desktop'] : args.preset === 'mobile' || args.preset === 'desktop' ? [args.preset] : undefined;
  if (!presets) {
    console.error('--preset must be mobile or desktop');
    return 2;
  }
  const reportDir = args['report-dir'] === undefined ? undefined : resolve(args['report-dir']);
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const appDir = resolve(args['app-dir']);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', APP_URL: url };
  delete env.DATABASE_URL;
  let server: ServerProcess | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    if (!args['no-build']) {
      console.log(`Building the web app in ${appDir}…`);
      const build = spawnSync(process.execPath, [join(appDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: appDir, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}${build.stderr}`);
    }
    console.log('Seeding the demo operator…');
    runNode(appDir, ['scripts/seed-demo.ts', '--email', DEMO_EMAIL, '--password', DEMO_PASSWORD], env);
    server = await startServer({ cwd: appDir, env, logFile: join(dataDir, 'server.log') });
    chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROMIUM_FLAGS });

    const pages = [
      { name: '/login', url: `${url}/login`, signedIn: false },
      { name: 'dashboard', url: `${url}/`, signedIn: true },
    ];
    const table: string[] = [];
    for (const preset of presets) {
      for (const page of pages) {
        const figures: RunFigures[] = [];
        for (let i = 0; i < runs; i++) {
          // A fresh session per run: a Cookie header kept for minutes may no longer be accepted.
          const reportFile = reportDir && join(reportDir, `${preset}-${page.name === '/login' ? 'login' : page.name}-${i + 1}.json`);
          const f = await measureWithRetries(page.url, chrome.port, preset, page.signedIn ? await signIn(url, DEMO_EMAIL, DEMO_PASSWORD) : undefined, reportFile);
          figures.push(f);
          console.log(`${preset} ${page.name} run ${i + 1}: ${row('', f).slice(4)}  load ${loadavg()[0]!.toFixed(2)}`);
        }
        table.push(row(`${page.name}, ${preset} (median of ${runs})`, medianFigures(figures)));
      }
    }
    console.log(`\n| page | score | LCP | TBT | FCP | transferred | requests |\n|---|---|---|---|---|---|---|\n${table.join('\n')}`);
    console.log(`\nLoad average (1, 5, 15 min) at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    return 0;
  } finally {
    await chrome?.kill();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
