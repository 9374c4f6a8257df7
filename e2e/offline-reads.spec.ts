/**
 * Reading offline on a phone (390 × 844), docs/decisions/048-offline-reads.md: a cleaner opens
 * Units, a unit and the Garages online; the network goes; moving between those screens inside
 * the app still shows their data with 'Offline — as of {time}' and the shell's banner, Count
 * opens from what was kept, Reports says plainly that it needs a connection, and a reload shows
 * the units again from the device. With the network back the mark goes and Reports loads. The
 * data is kept in IndexedDB for the signed-in user, and signing out deletes it.
 */
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { onboardedOperator } from './fixtures/account';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow' });

const BANNER = 'You are offline. Stock changes are kept on this phone and sent when the network is back.';

/** The query keys kept on the device (web/lib/offline-cache/offline-cache.ts), or null when nothing is kept. */
async function keptKeys(page: Page): Promise<unknown[] | null> {
  return page.evaluate(async () => {
    // Opened only once the app has made it: opening a database that does not exist creates an empty one.
    if (!(await indexedDB.databases()).some((db) => db.name === 'inventory-offline-reads')) return null;
    const value = await new Promise<unknown>((resolve, reject) => {
      const open = indexedDB.open('inventory-offline-reads');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const read = db.transaction('query-cache').objectStore('query-cache').get('query-cache');
        read.onerror = () => reject(read.error);
        read.onsuccess = () => {
          db.close();
          resolve(read.result);
        };
      };
    });
    if (typeof value !== 'string') return null;
    return (JSON.parse(value) as { clientState: { queries: { queryKey: unknown[] }[] } }).clientState.queries.map((q) => q.queryKey);
  });
}

/** Opens the phone menu and follows its link `name`: a navigation inside the app. */
async function goTo(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

test('Units, a unit, Count and Garages read offline; Reports needs a connection; sign-out deletes what was kept', async ({ page, context }) => {
  const dataDir = await migratedDataDir('offline');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  const { url } = server;
  try {
    await onboardedOperator(page, url, smtp, 'offline@example.com');
    const banner = page.getByRole('status').filter({ hasText: BANNER });
    const asOf = page.getByRole('status').filter({ hasText: /^Offline — as of \S/ });

    // Online: the screens a cleaner uses, opened once; no offline mark anywhere.
    await page.goto(`${url}/units`);
    await expect(page.getByRole('heading', { name: 'Beach House' })).toBeVisible();
    await page.getByRole('link', { name: 'View Details' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Beach House' })).toBeVisible();
    await goTo(page, 'Garages');
    await expect(page.getByTestId('garage-card').filter({ hasText: 'Main Storage' })).toBeVisible();
    await expect(asOf).toHaveCount(0);
    await expect(banner).toHaveCount(0);

    // What was read is kept on the device for this user, reports and the like never; the service
    // worker holds the screens' code (decision 046).
    const kept = async () => JSON.stringify(await keptKeys(page));
    // The unit's own query too, and the items that Count needs, read in idle time by the shell.
    const allKept = async () => {
      const keys = await kept();
      return ['["me"]', '["units"]', '["garages"]', '["items"]'].every((key) => keys.includes(key)) && /\["units","[^"]+"\]/.test(keys);
    };
    await expect.poll(allKept, { timeout: 20_000 }).toBe(true);
    expect(await kept()).not.toContain('dashboard');
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state))).toBe('activated');

    await context.setOffline(true);
    await expect(banner).toBeVisible();
    await expect(page.getByTestId('garage-card').filter({ hasText: 'Main Storage' })).toBeVisible();
    await expect(asOf).toBeVisible();

    // Moving inside the app: the data read earlier, with the time it was read.
    await goTo(page, 'Units');
    await expect(page.getByRole('heading', { name: 'Beach House' })).toBeVisible();
    await expect(asOf).toBeVisible();
    await expect(page.getByText('This content could not be loaded.')).toHaveCount(0);
    await page.getByRole('link', { name: 'View Details' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Beach House' })).toBeVisible();
    await expect(asOf).toBeVisible();

    // Count was never opened: its code comes from the service worker, its data from what was kept.
    await page.getByRole('link', { name: 'Count', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Count Beach House' })).toBeVisible();
    await expect(asOf).toBeVisible();
    await expect(banner).toBeVisible();

    // Reports keep nothing on the device: a plain sentence, not a spinner or an error.
    await goTo(page, 'Reports');
    await expect(page.getByText('Reports need a connection. They will load when you are back online.')).toBeVisible();
    await goTo(page, 'Units');
    await expect(asOf).toBeVisible();

    // A reload offline: the service worker gives the app, the device gives this user's data.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Beach House' })).toBeVisible();
    await expect(asOf).toBeVisible();
    await expect(banner).toBeVisible();

    // The network is back: the mark and the banner go, and Reports loads.
    await context.setOffline(false);
    await expect(asOf).toHaveCount(0);
    await expect(banner).toHaveCount(0);
    await goTo(page, 'Reports');
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

    // Signing out deletes what was kept.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${url}/login`);
    await expect.poll(() => keptKeys(page)).toBeNull();
  } finally {
    await server.stop();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
