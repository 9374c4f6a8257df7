/**
 * Vite plugin: index.html preloads the code of /login and of the dashboard (/) as soon as it
 * arrives, and on those paths sends the screen's first GET requests too (decision 016).
 *
 * Their screens are loaded on demand (web/app/router.tsx), so without this the browser learns of
 * them only once the entry and React have downloaded and run: a second round of requests before
 * the first paint. index.html gets a `<link rel="modulepreload">` for every chunk the entry
 * imports statically (the same on every path), and a small classic script,
 * `assets/first-screens-<hash>.js` (external, because the server's Content-Security-Policy
 * forbids inline scripts), that on those two paths adds one for each chunk of their screens
 * (FIRST_SCREENS with their static imports). Vite's own module preloading is off
 * (vite.config.ts): its helper cost every screen 1.3 kB of gzip, and other screens load their
 * code when the entry runs.
 *
 * The script also sends the screen's GET requests (the session, FIRST_SCREEN_START): without it
 * they wait for the code, and then for each other (the session before the shell renders, the
 * shell before the dashboard asks for its data). The pending answers are left in
 * `window.firstScreenRequests`, by path, where the app takes them instead of asking again
 * (web/lib/first-screen-requests.ts). The code of each first screen comes in a few chunks
 * (web-screen-chunks.ts).
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { FIRST_SCREENS } from './web-budget.ts';

/** The session read the route guards wait for, which index.html sends on each first screen's path. */
export const SESSION_REQUEST = '/api/auth/get-session';

/** What index.html starts for a first screen, besides its code, once the session says someone is signed in. */
export interface FirstScreenStart {
  /**
   * The GET requests the screen sends as soon as it renders (with the cookies, as the app's own
   * requests do).
   */
  requests: string[];
  /**
   * The screen formats dates in its first render. The first use of Intl in a page loads the
   * locale's data: some 40 ms on a desktop, four times that on Lighthouse's phone, in the middle
   * of that render. The script does it in a task of its own while the code is still downloading.
   */
  formatsDates: boolean;
}

/**
 * Per path of FIRST_SCREENS. The dashboard: the onboarding status, its answer and what the
 * shell shows (the user and company, the plan), then its card 'Runs out before a check-in',
 * whose code loads after the first paint but whose data need not wait for that code; it shows
 * the alerts' and the activity's times.
 */
export const FIRST_SCREEN_START: Record<string, FirstScreenStart> = {
  '/login': { requests: [], formatsDates: false },
  '/': {
    requests: ['/api/onboarding/status', '/api/dashboard', '/api/me', '/api/subscription/status', '/api/forecast/summary'],
    formatsDates: true,
  },
};

/**
 * The preloader's source, a classic script. On a path of `startByPath` it sends the session read
 * (SESSION_REQUEST) and, once its answer says someone is signed in, the path's requests (and
 * readies Intl, when the screen formats dates); `window.firstScreenRequests` gets, by path, a
 * promise of each answer, or of null for a request not sent (nobody is signed in, or the session
 * could not be read). A signed-out browser only reads the session, as the app would. Then it adds
 * a `modulepreload` link for each of `filesByPath[location.pathname]` (paths relative to the
 * site's root). The requests go first: the browser sends requests to one server a few at a time,
 * in the order they were made, and the answers are small.
 */
export function preloaderSource(filesByPath: Record<string, string[]>, startByPath: Record<string, FirstScreenStart>): string {
  // A failed request is rejected for whoever takes it; the empty handlers only keep one nobody
  // takes (the app moved on) from being reported as an unhandled rejection. The formatted date
  // is thrown away: the browser keeps the loaded data and the formatter for the page.
  return (
    `(function(){var p=location.pathname,c=${JSON.stringify(startByPath)}[p];` +
    `if(c){var o={credentials:'include',headers:{Accept:'application/json'}},s=window.firstScreenRequests={},` +
    `a=s[${JSON.stringify(SESSION_REQUEST)}]=fetch(${JSON.stringify(SESSION_REQUEST)},o),` +
    `y=a.then(function(x){return x.ok&&x.clone().json()}).then(function(b){return !!b},function(){return false});` +
    `a.catch(function(){});` +
    `c.requests.forEach(function(u){s[u]=y.then(function(i){return i?fetch(u,o):null});s[u].catch(function(){})});` +
    `if(c.formatsDates)y.then(function(i){i&&setTimeout(function(){new Date().toLocaleString()})})}` +
    `(${JSON.stringify(filesByPath)}[p]||[]).forEach(function(n){` +
    `var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href='/'+n;document.head.appendChild(l)})})();\n`
  );
}

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
      const source = preloaderSource(filesByPath, FIRST_SCREEN_START);
      const fileName = `assets/first-screens-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      // The entry's chunks are the same on every path: the HTML names them, so that they are
      // requested while the page is read, without waiting for the script. The script asks for
      // a high priority: as an async script it would get a low one and wait behind them.
      const links = [...entryFiles].map((file) => `\n    <link rel="modulepreload" crossorigin href="/${file}">`).join('');
      html.source = page.replace('<head>', `<head>\n    <script src="/${fileName}" async fetchpriority="high"></script>${links}`);
    },
  };
}
