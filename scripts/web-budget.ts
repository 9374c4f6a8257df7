/**
 * `npm run test:web-budget` (builds, then runs `node --import tsx scripts/web-budget.ts [dir]` on
 * dist/web or `dir`): the initial JavaScript budget of the web app (decision 016).
 *
 * A screen's initial JavaScript is every chunk the browser downloads before that screen's first
 * paint: the entry chunk of index.html with every chunk it imports statically, and the lazily
 * loaded modules of that screen (FIRST_SCREENS: its route component and, for the dashboard,
 * the shell) with theirs, each chunk counted once, at its gzip size (level 9, as the build writes
 * the .gz files; brotli, which browsers get, is smaller still), plus the classic scripts that
 * index.html names (the first screens' preloader). Chunks reached only through a
 * dynamic import (another screen, the reports' charts) are not counted. Read from Vite's
 * manifest, `dist/web/.vite/manifest.json`.
 *
 * Prints each screen's chunks and total and exits 1 when a screen is over BUDGET_BYTES, 2 when
 * the build is missing or a screen's module is not in the manifest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's build manifest (the fields read here). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** Vite's build manifest: chunk key (source path relative to web/, or `_name-hash.js`) -> chunk. */
export type Manifest = Record<string, ManifestChunk>;

/** Most initial JavaScript a screen may download, in bytes of gzip (150 kB as Vite reports). */
export const BUDGET_BYTES = 150_000;

/**
 * The modules each measured screen, by its path, loads lazily before its first paint, as manifest
 * keys (paths relative to web/), besides the entry. They follow web/app/router.tsx: /login is the
 * sign-in form; / (the dashboard of a signed-in operator) is the shell around the dashboard. The
 * build also preloads them from index.html on those paths (scripts/web-first-screens.ts).
 */
export const FIRST_SCREENS: Record<string, string[]> = {
  '/login': ['features/auth/LoginRoute.tsx'],
  '/': ['app/guards/RequireSetup.tsx', 'app/shell/AppShell.tsx', 'features/dashboard/DashboardRoute.tsx'],
};

/** The manifest key of index.html's entry chunk. @throws Error when there is none. */
export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('.html'));
  if (!key) throw new Error('the manifest has no entry for index.html');
  return key;
}

/**
 * The JavaScript files (paths relative to the build directory) loaded before the first paint of
 * a screen whose lazily loaded modules are `modules`: the entry and those modules, with every
 * chunk they import statically, transitively, each once; dynamic imports are not followed.
 * @throws Error when a module is not in the manifest (renamed or no longer lazy).
 */
export function initialFiles(manifest: Manifest, modules: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not a chunk of the build (is it still loaded lazily?)`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of [entryKey(manifest), ...modules]) visit(key);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

export interface ScreenMeasure {
  screen: string;
  files: { file: string; bytes: number }[];
  /** Sum of the files' gzip sizes, in bytes. */
  bytes: number;
  withinBudget: boolean;
}

/**
 * Measures every screen of `screens` with `gzipBytes(file)` giving a file's gzip size.
 * @param budget most bytes allowed per screen (default BUDGET_BYTES).
 */
export function measureScreens(
  manifest: Manifest,
  gzipBytes: (file: string) => number,
  screens: Record<string, string[]> = FIRST_SCREENS,
  budget = BUDGET_BYTES,
): ScreenMeasure[] {
  return Object.entries(screens).map(([screen, modules]) => {
    const files = initialFiles(manifest, modules)
      .map((file) => ({ file, bytes: gzipBytes(file) }))
      .sort((a, b) => b.bytes - a.bytes);
    const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
    return { screen, files, bytes, withinBudget: bytes <= budget };
  });
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

/** @param outDir the build directory (default dist/web). */
function main(outDir = fileURLToPath(new URL('../dist/web', import.meta.url))): number {
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`No build manifest at ${manifestPath}: run \`npm run build\` first.`);
    return 2;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  // Classic scripts index.html names (the first screens' preloader) download before any screen.
  const scripts = [...readFileSync(join(outDir, 'index.html'), 'utf8').matchAll(/<script src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const gzipBytes = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
  let measures: ScreenMeasure[];
  try {
    measures = measureScreens(manifest, gzipBytes).map((m) => {
      const files = [...m.files, ...scripts.map((file) => ({ file, bytes: gzipBytes(file) }))];
      const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
      return { ...m, files, bytes, withinBudget: bytes <= BUDGET_BYTES };
    });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  for (const m of measures) {
    console.log(`\n${m.screen}: ${kB(m.bytes)} of initial JavaScript (gzip), budget ${kB(BUDGET_BYTES)}: ${m.withinBudget ? 'PASS' : 'FAIL'}`);
    for (const f of m.files) console.log(`  ${kB(f.bytes).padStart(10)}  ${f.file}`);
  }
  const over = measures.filter((m) => !m.withinBudget);
  if (over.length) console.error(`\nOver the initial JavaScript budget: ${over.map((m) => m.screen).join(', ')}`);
  return over.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2]);
