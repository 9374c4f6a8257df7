/**
 * The first screens' code in a few chunks instead of dozens (decision 016).
 *
 * Left to itself, the bundler gives every set of modules that a different set of screens shares
 * a chunk of its own: the dashboard downloaded 27 files before its first paint, most under 1 kB,
 * each a request (on a phone's network a round trip, a kilobyte of headers, and a share of the
 * bandwidth the large files wait for). Here the modules of each first screen (FIRST_SCREENS with
 * everything they import statically, except what the entry already loads) make one chunk, and
 * the modules both first screens use one more. The screens' route modules themselves keep the
 * chunks the build manifest names them by (scripts/web-budget.ts, web-first-screens.ts).
 *
 * Other screens import what they share with these from their chunks: every signed-in screen
 * opens inside the shell, whose chunk holds the fetch wrapper, zod and the dashboard.
 */
import type { Plugin } from 'vite';
import { FIRST_SCREENS } from './web-budget.ts';

/** A code-splitting group of Rolldown (Vite's `build.rolldownOptions.output.codeSplitting.groups`). */
export interface ChunkGroup {
  name: string;
  test: (id: string) => boolean;
  includeDependenciesRecursively: false;
}

/** The module ids of a build and, for each, the ids it imports statically. */
export type ModuleGraph = Map<string, readonly string[]>;

/**
 * Modules the static graph reaches from the first screens that their code never runs: zod's core
 * index re-exports its JSON Schema generator and every locale, which `zod/mini` leaves out of what
 * it uses. Left in a first screen's group, they would be downloaded with it (about 7 kB of gzip)
 * for the other screens' classic zod to import from there.
 */
const NOT_FIRST_SCREEN = /[\\/]node_modules[\\/]zod[\\/]v4[\\/](core[\\/](to-json-schema|json-schema[a-z-]*)\.js|locales[\\/])/;

/** `start` and every module it imports statically, transitively, except those in `except` (and NOT_FIRST_SCREEN). */
function closure(graph: ModuleGraph, start: string, except: ReadonlySet<string>, into = new Set<string>()): Set<string> {
  if (into.has(start) || except.has(start) || NOT_FIRST_SCREEN.test(start)) return into;
  into.add(start);
  for (const imported of graph.get(start) ?? []) closure(graph, imported, except, into);
  return into;
}

/**
 * Which modules go to which first screen's chunk.
 * @param entries the ids of the entry modules (index.html's script).
 * @param screens per screen, the ids of the route modules it loads lazily before its first paint.
 * @returns `shared`, the modules every screen uses, and `own`, per screen, the other ones; the
 * entry's modules and the route modules themselves are in neither.
 */
export function screenModules(graph: ModuleGraph, entries: string[], screens: string[][]): { shared: Set<string>; own: Set<string>[] } {
  const initial = new Set<string>();
  for (const entry of entries) closure(graph, entry, new Set(), initial);
  const routes = new Set(screens.flat());
  const used = screens.map((modules) => {
    const ids = new Set<string>();
    for (const module of modules) closure(graph, module, initial, ids);
    for (const route of routes) ids.delete(route);
    return ids;
  });
  const shared = new Set([...(used[0] ?? [])].filter((id) => used.every((ids) => ids.has(id))));
  return { shared, own: used.map((ids) => new Set([...ids].filter((id) => !shared.has(id)))) };
}

/** The first chunk found that imports, through its static imports, itself; undefined when none does. */
export function chunkCycle(imports: Map<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (file: string, path: string[]): string[] | undefined => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    for (const imported of imports.get(file) ?? []) {
      const cycle = visit(imported, [...path, file]);
      if (cycle) return cycle;
    }
    done.add(file);
    return undefined;
  };
  for (const file of imports.keys()) {
    const cycle = visit(file, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/**
 * The groups for `codeSplitting.groups` and the plugin that fills them: Rolldown asks the groups
 * about each module when it splits the chunks, after the plugin has read the module graph
 * (`buildEnd`). The plugin also fails the build when two chunks import each other, which a
 * module missing from a screen's set could cause (the browser would run one before the other's
 * exports exist).
 * @throws (fails the build) when a module of FIRST_SCREENS is not in the build.
 */
export function firstScreenChunks(): { plugin: Plugin; groups: ChunkGroup[] } {
  const paths = Object.keys(FIRST_SCREENS);
  const shared = new Set<string>();
  const own = paths.map(() => new Set<string>());
  const plugin: Plugin = {
    name: 'first-screen-chunks',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      const ids = [...this.getModuleIds()];
      const graph: ModuleGraph = new Map(ids.map((id) => [id, this.getModuleInfo(id)?.importedIds ?? []]));
      const idOf = (module: string) => {
        const id = ids.find((i) => i.replaceAll('\\', '/').endsWith(`/web/${module}`));
        return id ?? this.error(`${module} is not a module of the build`);
      };
      const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
      const modules = screenModules(graph, entries, paths.map((path) => FIRST_SCREENS[path]!.map(idOf)));
      modules.shared.forEach((id) => shared.add(id));
      modules.own.forEach((ids, i) => ids.forEach((id) => own[i]!.add(id)));
    },
    generateBundle(_options, bundle) {
      const imports = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output.imports] as const] : [])));
      const cycle = chunkCycle(imports);
      if (cycle) this.error(`chunks import each other: ${cycle.join(' -> ')}`);
    },
  };
  // Named after the route module that each screen's group serves last ('DashboardRoute.tsx' -> 'dashboard').
  const names = paths.map((path) => FIRST_SCREENS[path]!.at(-1)!.replace(/^.*\//, '').replace(/Route\.tsx$/, '').toLowerCase());
  const groups: ChunkGroup[] = [
    { name: `${names.join('-')}-shared`, test: (id) => shared.has(id), includeDependenciesRecursively: false },
    ...own.map((ids, i): ChunkGroup => ({ name: `${names[i]}-screen`, test: (id) => ids.has(id), includeDependenciesRecursively: false })),
  ];
  return { plugin, groups };
}
