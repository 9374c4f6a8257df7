/**
 * Vite plugin: index.html preloads the code of /login and of the dashboard (/) as soon as it
 * arrives, when the browser opens one of those paths (decision 016).
 *
 * Their screens are loaded on demand (web/app/router.tsx), so without this the browser learns of
 * them only once the entry and React have downloaded and run: a second round of requests before
 * the first paint. The build writes a small classic script, `assets/first-screens-<hash>.js`
 * (external, because the server's Content-Security-Policy forbids inline scripts), that adds a
 * `<link rel="modulepreload">` for every chunk the entry imports statically and, on those two
 * paths, for each chunk of their screens (FIRST_SCREENS with their static imports). Vite's own
 * module preloading is off (vite.config.ts): its helper cost every screen 1.3 kB of gzip, and
 * other screens load their code when the entry runs.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { FIRST_SCREENS } from './web-budget.ts';

/** The plugin; build only. @throws (fails the build) when a screen's module is not a chunk. */
export function firstScreensPreload(): Plugin {
  return {
    name: 'first-screens-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const page = String(html.source);
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      /** `fileName` and the chunks it imports statically, transitively, added to `files`. */
      const visit = (files: Set<string>, fileName: string) => {
        if (files.has(fileName)) return;
        files.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') for (const imported of chunk.imports) visit(files, imported);
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return this.error('the build has no entry chunk');
      const entryFiles = new Set<string>();
      visit(entryFiles, entry.fileName);
      const filesByPath: Record<string, string[]> = {};
      for (const [path, modules] of Object.entries(FIRST_SCREENS)) {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/web/${module}`));
          if (!chunk) this.error(`${module} is not a chunk of the build (is it still loaded lazily?)`);
          visit(files, chunk.fileName);
        }
        filesByPath[path] = [...files].filter((file) => !entryFiles.has(file));
      }
      entryFiles.delete(entry.fileName);
      const source =
        `(function(){var f=${JSON.stringify([...entryFiles])}.concat(${JSON.stringify(filesByPath)}[location.pathname]||[]);` +
        `f.forEach(function(n){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href='/'+n;document.head.appendChild(l)})})();\n`;
      const fileName = `assets/first-screens-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      html.source = page.replace('<head>', `<head>\n    <script src="/${fileName}" async></script>`);
    },
  };
}
