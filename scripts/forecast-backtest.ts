/**
 * `npm run forecast:backtest [-- --json] [-- --stays calendar]`: seeds the demo operator into a
 * fresh embedded database in a temporary directory (deleted at the end), then replays its history
 * (docs/forecast.md "Backtest"): the restock forecast against two baselines, by WAPE per item
 * category and overall, and the restocking policies (backtest/policy-table.ts `backtestPolicies`: the
 * pick lists, the minimum rule ×1, ×1.5, ×2, ×3) with the stays that would have started short
 * and the pieces each brought. The same replay then runs on the independent company
 * (backtest/independent-company.ts), generated in code, whose usage is not drawn from the
 * model's formula. With `--stays calendar` the demo's replay runs a second time on the stays the
 * properties' calendar links give when the demo's bookings are served as future-only feeds
 * (backtest/link-stays.ts), the two side by side, and any stay the links' history misses or adds
 * is listed.
 *
 * Exit codes: 0 done, 1 the seed or the replay failed, 2 bad arguments.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TYPICAL_GUESTS } from '../common/contracts/calendars';
import { openPglite, type Db } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { loadHistory, stockAtStartOf } from './backtest/history';
import { independentCompany, type RecordingMode } from './backtest/independent-company';
import { staysThroughLinks, stayDifferences } from './backtest/link-stays';
import { backtestPolicies, minimumPiecesAt, replayPolicies, servedShare, type PolicyResult } from './backtest/policy-table';
import { DEFAULT_REPLAY, replayForecast, wape, type BacktestHistory, type ErrorSums, type ForecastErrors, type ReplayOptions } from './backtest/replay';
import { DEMO_COMPANY } from './demo/catalogue';
import { seedDemo } from './demo/seed';

const usage = `Usage: npm run forecast:backtest [-- --json] [-- --stays calendar]

  --json             print the figures as JSON instead of tables
  --stays calendar   replay again on the stays the properties' calendar links give, the
                     demo's bookings served as future-only feeds and read once a day
                     (default --stays demo: the demo's stays only)`;

const percent = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

/** The WAPE of each forecaster for one group of windows. */
function wapes(sums: ErrorSums) {
  return {
    actual: Math.round(sums.actual),
    forecast: Math.round(sums.forecast),
    model: wape(sums.model, sums.actual),
    average: wape(sums.average, sums.actual),
    minimum: wape(sums.minimum, sums.actual),
  };
}

/** What one replay of a history found: the forecast's errors and a row per policy. */
interface Figures {
  errors: ForecastErrors;
  policies: PolicyResult[];
}

/** Replays `history`: the forecast's errors, and every policy of `backtestPolicies` from `startStock` (stock[u][i] at the start of `options.firstDay`). */
function replay(history: BacktestHistory, startStock: readonly (readonly number[])[], options: ReplayOptions): Figures {
  return {
    errors: replayForecast(history, options),
    policies: replayPolicies(history, startStock, backtestPolicies(history, options.horizon), options.firstDay),
  };
}

/** Replays the demo's `history` of company `tenantId`, from its ledger's stock at the start of `options.firstDay`. */
async function replayStored(db: Db, tenantId: string, history: BacktestHistory & { timeZone: string }, options: ReplayOptions): Promise<Figures> {
  return replay(history, await stockAtStartOf(db, tenantId, history, options.firstDay, history.timeZone), options);
}


/** The categories of `errors` by name, with their sums. */
const categoriesOf = (errors: ForecastErrors) => [...errors.byCategory.entries()].sort(([a], [b]) => a.localeCompare(b));

/** The figures as the JSON output gives them: the policies as rows, one per policy, ready to plot. */
const figuresJson = ({ errors, policies }: Figures) => ({
  wape: { overall: wapes(errors.overall), byCategory: Object.fromEntries(categoriesOf(errors).map(([c, s]) => [c, wapes(s)])) },
  policies: policies.map((p) => {
    const served = servedShare(p);
    return { ...p, shortShare: served === null ? null : 1 - served, minimumPiecesAtShare: p.target === undefined || served === null ? null : minimumPiecesAt(policies, served) };
  }),
});

/** `table`'s rows as lines, columns padded to their widest cell: the first left-aligned, the others (numbers) right-aligned. */
function render(table: readonly (readonly string[])[]): string[] {
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  return table.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd());
}

/**
 * The policy table's lines: per policy, the stays checked, those that started short (count and
 * share), the share served against a service level's target (its calibration), the pieces
 * brought and, for a service level, the pieces the threshold rule needs to serve as many.
 */
const policyTable = (policies: readonly PolicyResult[]): string[] =>
  render([
    ['Policy', 'Stays', 'Started short', 'Share', 'Served (target)', 'Pieces brought', 'Minimum rule at that share'],
    ...policies.map((p) => {
      const served = servedShare(p);
      const minimum = p.target === undefined || served === null ? '' : minimumPiecesAt(policies, served);
      return [
        p.label,
        String(p.stays),
        String(p.shortStays),
        percent(served === null ? null : 1 - served),
        served === null ? '—' : `${percent(served)}${p.target === undefined ? '' : ` (${percent(p.target)})`}`,
        String(p.piecesMoved),
        minimum === '' ? '' : minimum === null ? 'more than ×6' : String(Math.round(minimum)),
      ];
    }),
  ]);

/**
 * The forecast's error table: per item category and overall, what was used, the forecast and
 * the WAPE of the forecast and of both baselines; with `links`, the forecast on the calendar
 * links' stays beside the one on the history's own.
 */
function errorTable(errors: ForecastErrors, options: ReplayOptions, links?: ForecastErrors): string[] {
  const linkSums = links && new Map(categoriesOf(links));
  const rows: [string, ErrorSums, ErrorSums | undefined][] = [
    ...categoriesOf(errors).map(([c, sums]): [string, ErrorSums, ErrorSums | undefined] => [c, sums, linkSums?.get(c)]),
    ['Overall', errors.overall, links?.overall],
  ];
  return render([
    [
      'Category',
      'Used',
      ...(links ? ['Forecast (demo stays)', 'WAPE', 'Forecast (link stays)', 'WAPE'] : ['Forecast', 'WAPE forecast']),
      `WAPE ${options.averageDays}-day average`,
      'WAPE minimum',
    ],
    ...rows.map(([name, sums, fromLinks]) => {
      const w = wapes(sums);
      const l = fromLinks && wapes(fromLinks);
      return [name, String(w.actual), String(w.forecast), percent(w.model), ...(l ? [String(l.forecast), percent(l.model)] : []), percent(w.average), percent(w.minimum)];
    }),
  ]);
}

/** A company's section of the printed report: its forecast errors and its policy table(s). */
function companyReport(history: BacktestHistory, figures: Figures, options: ReplayOptions, links?: Figures): string {
  const from = history.days[options.firstDay];
  return `Forecast of each property's use of each item over ${options.horizon} days, from ${figures.errors.origins} days (${from} on):
${errorTable(figures.errors, options, links?.errors).join('\n')}

Restocking policies from ${from}, the same starting stock; a stay started short when its property held less of some item than the stay used${links ? ' (demo stays)' : ''}:
${policyTable(figures.policies).join('\n')}${
    links
      ? `

The same on the stays the calendar links give:
${policyTable(links.policies).join('\n')}`
      : ''
  }`;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: { json: { type: 'boolean', default: false }, stays: { type: 'string', default: 'demo' }, help: { type: 'boolean' } },
    }).values;
    if (args.stays !== 'demo' && args.stays !== 'calendar') throw new Error(`--stays must be demo or calendar, not '${args.stays}'`);
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    return 2;
  }
  if (args.help) {
    console.log(usage);
    return 0;
  }
  const say = args.json ? () => {} : (line: string) => console.log(line);
  const started = Date.now();
  const now = new Date();
  const dataDir = mkdtempSync(join(tmpdir(), 'forecast-backtest-'));
  try {
    const database = await openPglite(dataDir);
    try {
      say('Seeding the demo operator into a temporary database…');
      await runMigrations(database);
      const seeded = await seedDemo(database, { now });
      const tenantId = seeded.tenantId!;
      const seedMs = Date.now() - started;
      const history = await loadHistory(database.db, tenantId, now);
      const options = DEFAULT_REPLAY;
      say(`Demo company (${DEMO_COMPANY}): replaying ${history.days.length} days (${history.days[0]} to ${history.days.at(-1)}, ${history.timeZone}), ${history.unitIds.length} properties, ${history.items.length} items…`);
      const demo = await replayStored(database.db, tenantId, history, options);

      let links: { figures: Figures; stays: number; differences: string[]; reads: number; days: number; seconds: number } | undefined;
      if (args.stays === 'calendar') {
        say('Feeding the stays through a calendar link per property, read once a day…');
        const linksStarted = Date.now();
        const fed = await staysThroughLinks(database.db, tenantId, history, now);
        const linked = await loadHistory(database.db, tenantId, now);
        links = {
          ...fed,
          seconds: (Date.now() - linksStarted) / 1000,
          stays: linked.stays.length,
          differences: stayDifferences(history.stays, linked.stays),
          figures: await replayStored(database.db, tenantId, linked, options),
        };
      }

      const company = independentCompany();
      const independent = replay(company.history, company.startStock, options);
      const recording = (mode: RecordingMode) => company.properties.filter((p) => p.recording === mode).length;

      const daysOf = (h: BacktestHistory, figures: Figures) => ({
        first: h.days[0],
        last: h.days.at(-1),
        forecastFrom: h.days[options.firstDay],
        origins: figures.errors.origins,
      });
      const result = {
        ranAt: now.toISOString(),
        seconds: { total: (Date.now() - started) / 1000, seed: seedMs / 1000, ...(links ? { links: links.seconds } : {}) },
        horizonDays: options.horizon,
        averageDays: options.averageDays,
        demo: {
          timeZone: history.timeZone,
          days: daysOf(history, demo),
          ...figuresJson(demo),
          ...(links
            ? {
                calendarLinks: {
                  reads: links.reads,
                  daysRead: links.days,
                  stays: { demo: history.stays.length, links: links.stays },
                  differences: links.differences,
                  ...figuresJson(links.figures),
                },
              }
            : {}),
        },
        independent: {
          company: company.name,
          timeZone: company.timeZone,
          days: daysOf(company.history, independent),
          properties: company.history.unitIds.length,
          items: company.history.items.length,
          stays: company.history.stays.length,
          recording: { checkout: recording('checkout'), weekly: recording('weekly'), late: recording('late') },
          ...figuresJson(independent),
        },
      };
      if (args.json) {
        console.log(JSON.stringify(result, null, 2));
        return 0;
      }

      say(`
${companyReport(history, demo, options, links?.figures)}`);
      if (links) {
        say(`
Calendar links: ${history.unitIds.length} properties read on ${links.days} days (${links.reads} reads) in ${links.seconds.toFixed(1)} s.
The links' history holds ${links.stays} stays, the demo's ${history.stays.length}; ${
          links.differences.length === 0
            ? 'the same stays of the same properties on the same dates.'
            : `they differ (- only in the demo's, + only from the links):\n${links.differences.map((d) => `  ${d}`).join('\n')}`
        }
A link gives no guests: its stays count the property's typical guests (${DEFAULT_TYPICAL_GUESTS} when it has none).`);
      }
      const ih = company.history;
      say(`
Independent company (${company.name}, generated, usage not drawn from the model's formula): ${ih.days.length} days (${ih.days[0]} to ${ih.days.at(-1)}), ${ih.unitIds.length} properties, ${ih.items.length} items, ${ih.stays.length} stays.
Usage recorded at checkout at ${recording('checkout')} properties, by a weekly count at ${recording('weekly')}, 1–3 days late at ${recording('late')}; the model learns from what was recorded, the figures count what each stay really used.

${companyReport(ih, independent, options)}`);
      say(`
Ran in ${result.seconds.total.toFixed(1)} s (seeding ${result.seconds.seed.toFixed(1)} s).`);
      return 0;
    } finally {
      await database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
