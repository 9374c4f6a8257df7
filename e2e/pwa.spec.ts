/**
 * The installable app in Chromium against the real server (decision 046): the page links the web
 * app manifest, which has the fields an install needs and icons that load at their stated sizes;
 * the service worker registers, activates and controls the page, with the code of the screens a
 * cleaner uses precached and no API answer cached; then, with the browser offline, /login and
 * a deep app path still open on the app's own sign-in screen (not Chromium's offline page), the
 * cleaner screens' code loads from the precache, while the Reports screen's code and the API
 * (never answered with the app page) need the network.
 *
 * The service worker needs a secure context: the fixture's http://localhost is one. The spec
 * reads the built app's Vite manifest (dist/web, which `npm run test:e2e` builds) to know the
 * screens' file names.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startServer } from './fixtures/server';
import { migratedDataDir } from './fixtures/templates';

/** The built web app the server serves (server/paths.ts). */
const WEB_ROOT = fileURLToPath(new URL('../dist/web', import.meta.url));

/** One chunk of Vite's manifest (dist/web/.vite/manifest.json), keyed by its source under web/. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** The screens a cleaner uses in a storage room (the router's lazy modules), with the shell around them. */
const CLEANER_SCREENS = [
  'features/auth/LoginRoute.tsx',
  'app/guards/RequireSetup.tsx',
  'app/shell/AppShell.tsx',
  'features/dashboard/DashboardRoute.tsx',
  'features/units/UnitsRoute.tsx',
  'features/units/UnitDetailRoute.tsx',
  'features/count/CountRoute.tsx',
  'features/forecast/PickListRoute.tsx',
  'features/garages/GaragesRoute.tsx',
];

/** The screen whose code is left out of the precache: its charts and markdown need the server's data. */
const ONLINE_ONLY_SCREEN = 'features/reports/ReportsRoute.tsx';

/** The URLs of `modules` and of every chunk and stylesheet they import statically, from the build's manifest. */
function codeOf(modules: string[]): string[] {
  const manifest = JSON.parse(readFileSync(join(WEB_ROOT, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest: renamed, or no longer a chunk?`);
    if (files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) files.add(`/${css}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(module);
  return [...files];
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Buffer): string {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}

/** The status of each of `urls` fetched by the page (0 when the fetch fails: no network, nothing cached). */
function fetchStatuses(page: Page, urls: string[]): Promise<Record<string, number>> {
  return page.evaluate(async (list) => {
    const statuses: Record<string, number> = {};
    for (const url of list) statuses[url] = await fetch(url).then((res) => res.status, () => 0);
    return statuses;
  }, urls);
}


test.use({ serviceWorkers: 'allow' });

test('installable: the manifest and its icons, the service worker, and the shell offline', async ({ page, context }) => {
  const dataDir = await migratedDataDir('pwa');
  const server = await startServer(await freePort(), { DATA_DIR: dataDir });
  const { url } = server;
  try {
    await page.goto(`${url}/login`);
    const signIn = page.getByRole('heading', { level: 1, name: 'Inventory Manager' });
    await expect(signIn).toBeVisible();

    // The manifest: linked from the page, served as a manifest, with what an install needs.
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(manifestHref).toBe('/manifest.webmanifest');
    const manifestAnswer = await page.request.get(`${url}${manifestHref}`);
    expect(manifestAnswer.status()).toBe(200);
    expect(manifestAnswer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifestAnswer.headers()['cache-control']).toBe('no-cache');
    const manifest = (await manifestAnswer.json()) as {
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
      [field: string]: unknown;
    };
    const themeColour = await page.locator('meta[name="theme-color"]').getAttribute('content');
    expect(manifest).toMatchObject({
      name: 'Inventory Manager',
      short_name: expect.any(String),
      description: expect.any(String),
      display: 'standalone',
      start_url: '/',
      scope: '/',
      theme_color: themeColour,
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    expect((manifest.short_name as string).length).toBeLessThanOrEqual(12);
    const icons = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(icons).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    // Each icon loads, as a PNG of the size it claims; so does the Apple touch icon the page names.
    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    for (const icon of [...manifest.icons, { src: appleIcon!, sizes: '180x180', type: 'image/png' }]) {
      const answer = await page.request.get(new URL(icon.src, `${url}${manifestHref}`).href);
      expect(answer.status(), icon.src).toBe(200);
      expect(answer.headers()['content-type'], icon.src).toBe('image/png');
      expect(pngSize(await answer.body()), icon.src).toBe(icon.sizes);
    }

    // The service worker: registered by the page for the whole site, activated, controlling it.
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { scope: registration.scope, script: registration.active?.scriptURL };
    });
    expect(worker).toEqual({ scope: `${url}/`, script: `${url}/sw.js` });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state))).toBe('activated');
    // clientsClaim: the page that registered it is controlled without a reload.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(`${url}/sw.js`);
    const workerAnswer = await page.request.get(`${url}/sw.js`);
    expect(workerAnswer.headers()['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(workerAnswer.headers()['cache-control']).toBe('no-cache');

    // What the worker keeps: the page and the cleaners' screens, never an API answer (the page
    // has read the session by now), nor the Reports screen's code.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    const cleanerCode = codeOf(CLEANER_SCREENS);
    expect(cached).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', ...cleanerCode]));
    expect(cached.filter((path) => path.startsWith('/api/'))).toEqual([]);
    const reportsCode = codeOf([ONLINE_ONLY_SCREEN]).filter((file) => !cleanerCode.includes(file));
    expect(reportsCode.length).toBeGreaterThan(0);
    expect(cached.filter((path) => reportsCode.includes(path))).toEqual([]);

    // Offline: the page reloads from the precache and shows the sign-in screen.
    await context.setOffline(true);
    await page.reload();
    await expect(signIn).toBeVisible();
    await expect(page).toHaveTitle('Sign in · Inventory Manager');

    // A deep app path opens the app too: signed out (the session cannot be read), it leads to sign-in.
    await page.goto(`${url}/units`);
    await expect(page).toHaveURL(`${url}/login`);
    await expect(signIn).toBeVisible();
    await page.goto(`${url}/unit/6f0c8a52-3c8e-4f4e-9a7d-2b1e5c0d9f31/count`);
    await expect(signIn).toBeVisible();

    // The cleaners' screens load offline; Reports and the API need the network.
    const offline = await fetchStatuses(page, [...cleanerCode, ...reportsCode, '/api/health']);
    for (const file of cleanerCode) expect(offline[file], file).toBe(200);
    for (const file of reportsCode) expect(offline[file], file).toBe(0);
    expect(offline['/api/health']).toBe(0);
    // A navigation to the API is never answered with the app page.
    await expect(page.goto(`${url}/api/health`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);

    // Back online, the API answers again.
    await context.setOffline(false);
    await page.goto(`${url}/login`);
    await expect(signIn).toBeVisible();
    expect(await fetchStatuses(page, ['/api/health'])).toEqual({ '/api/health': 200 });
  } finally {
    await context.setOffline(false);
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
