/**
 * `npm run forecast:backtest [-- --json]`: seeds the demo operator into a fresh embedded
 * database in a temporary directory (deleted at the end), then replays its history
 * (docs/forecast.md "Backtest"): the restock forecast against two baselines, by WAPE per item
 * category and overall, and the stays that would have started short under the pick lists and
 * under the minimum-threshold rule, with the pieces each moved.
 *
 * Exit codes: 0 done, 1 the seed or the replay failed, 2 bad arguments.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openPglite } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { loadHistory, stockAtStartOf } from './backtest/history';
import {
  DEFAULT_REPLAY,
  minimumPolicy,
  pickListPolicy,
  replayForecast,
  replayPolicy,
  wape,
  type ErrorSums,
  type PolicyOutcome,
} from './backtest/replay';
import { seedDemo } from './demo/seed';

const usage = `Usage: npm run forecast:backtest [-- --json]

  --json   print the figures as JSON instead of tables`;

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

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { json: { type: 'boolean', default: false }, help: { type: 'boolean' } } }).values;
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
      const seedMs = Date.now() - started;
      const history = await loadHistory(database.db, seeded.tenantId!, now);
      const options = DEFAULT_REPLAY;
      const startStock = await stockAtStartOf(database.db, seeded.tenantId!, history, options.firstDay, history.timeZone);
      say(`Replaying ${history.days.length} days (${history.days[0]} to ${history.days.at(-1)}, ${history.timeZone}), ${history.unitIds.length} properties, ${history.items.length} items…`);

      const errors = replayForecast(history, options);
      const policies: Record<'pickLists' | 'minimum', PolicyOutcome> = {
        pickLists: replayPolicy(history, startStock, pickListPolicy(history, options.horizon), options.firstDay),
        minimum: replayPolicy(history, startStock, minimumPolicy(history), options.firstDay),
      };
      const categories = [...errors.byCategory.entries()].sort(([a], [b]) => a.localeCompare(b));
      const result = {
        ranAt: now.toISOString(),
        seconds: { total: (Date.now() - started) / 1000, seed: seedMs / 1000 },
        days: { first: history.days[0], last: history.days.at(-1), forecastFrom: history.days[options.firstDay], origins: errors.origins },
        horizonDays: options.horizon,
        averageDays: options.averageDays,
        wape: { overall: wapes(errors.overall), byCategory: Object.fromEntries(categories.map(([c, s]) => [c, wapes(s)])) },
        policies,
      };
      if (args.json) {
        console.log(JSON.stringify(result, null, 2));
        return 0;
      }

      const rows = [...categories.map(([c, s]) => [c, wapes(s)] as const), ['Overall', wapes(errors.overall)] as const];
      const table = [
        ['Category', 'Used', 'Forecast', 'WAPE forecast', `WAPE ${options.averageDays}-day average`, 'WAPE minimum'],
        ...rows.map(([name, w]) => [name, String(w.actual), String(w.forecast), percent(w.model), percent(w.average), percent(w.minimum)]),
      ];
      const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
      const line = (r: readonly string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
      say(`
Forecast of each property's use of each item over ${options.horizon} days, from ${errors.origins} days (${result.days.forecastFrom} on):
${line(table[0]!)}
${table.slice(1).map(line).join('\n')}

Stays that would have started short of at least one item (from ${result.days.forecastFrom}, same starting stock):
  Pick lists:            ${policies.pickLists.shortStays} of ${policies.pickLists.stays} stays, ${policies.pickLists.piecesMoved} pieces brought
  Restock to minimum:    ${policies.minimum.shortStays} of ${policies.minimum.stays} stays, ${policies.minimum.piecesMoved} pieces brought

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
