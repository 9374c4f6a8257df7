/**
 * Registers the service worker the build generates (vite-plugin-pwa with Workbox, decision 046),
 * which keeps the app's shell — index.html and the code of every screen but Reports — so the app
 * opens without a network. API answers are never cached by it.
 *
 * Updates take over by themselves: the worker skips waiting and claims the open pages
 * (`skipWaiting`, `clientsClaim` in vite.config.ts), so the next page load, reload or a newly
 * opened app gets the new release; nothing reloads a page under the user's hands. A page still
 * running the old release that asks for a screen's code the new release removed reloads once, as
 * it did before the worker (the router's `reloadAfterFailedLoad`).
 *
 * Production builds only (main.tsx checks `import.meta.env.PROD`): under `vite` (development)
 * there is no worker, and a cached shell would hide every edit.
 */

import { firstScreenSettled } from '../lib/first-screen-settled';

/** Where the build writes the worker (vite-plugin-pwa's default `filename`); its scope is the whole site. */
export const SERVICE_WORKER_URL = '/sw.js';

/**
 * How often an open page asks for a new worker, in ms. A browser checks on each page load;
 * an app installed on a phone can stay open for days without one, so it also checks when it comes
 * back to the screen after this long (one small request: the server answers the unchanged worker
 * with its ETag).
 */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the worker once the first screen has settled (first-screen-settled.ts: some time after
 * the page's load event, which comes before the screen's data), so its download, the precache
 * (about a megabyte, fetched once per release) and its installation never compete with the first
 * screen's requests and rendering. Does nothing in a browser without service workers (or in a context that forbids them: plain
 * http on another host than localhost). A failed registration is left alone: the app works
 * online without the worker.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).then(checkForUpdatesWhenShown, () => undefined);
  };
  void firstScreenSettled().then(register);
}

/** Asks `registration` for a new worker when the page is shown again, at most once per UPDATE_CHECK_MS. */
function checkForUpdatesWhenShown(registration: ServiceWorkerRegistration): void {
  let checkedAt = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || Date.now() - checkedAt < UPDATE_CHECK_MS) return;
    checkedAt = Date.now();
    // Offline the check fails; the next one will do.
    registration.update().catch(() => undefined);
  });
}
