/**
 * Stock changes without a network, on a phone (docs/product.md "Offline use", decision 047), in
 * Chromium with the network cut (`context.setOffline`): ten plus taps, a restock by quantity and a
 * count made offline are kept on the phone, shown as made and counted as waiting; they survive a
 * reload made offline; when the network is back they are sent in order and the stock holds each
 * of them once. The same changes put back in the phone's store and sent again change nothing (the
 * server answers them by their Idempotency-Key). A change the server refuses once the network is
 * back waits in "Not sent" with the server's reason until it is discarded; signing out with a
 * change waiting asks first.
 */
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Garage, Unit } from '../common/contracts/stock';
import { onboardedOperator } from './fixtures/account';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow' });

/** The changes kept in the phone's outbox (web/lib/outbox/outbox.ts: IndexedDB 'stock-keeper-outbox', store 'changes'). */
function keptChanges(page: Page): Promise<unknown[]> {
  return page.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('stock-keeper-outbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('changes').objectStore('changes').getAll();
          read.onsuccess = () => resolve(read.result);
          read.onerror = () => reject(read.error);
        };
      }),
  );
}

/** Puts `changes` back in the phone's outbox, as if they had never been sent. */
function putBack(page: Page, changes: unknown[]): Promise<void> {
  return page.evaluate(
    (all) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('stock-keeper-outbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('changes', 'readwrite');
          for (const change of all as { id: string }[]) tx.objectStore('changes').put(change, change.id);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    changes,
  );
}

test('changes made offline are kept, survive a reload, and are written once when the network is back', async ({ page, context }) => {
  const dataDir = await migratedDataDir('offline');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  const { url } = server;
  try {
    await onboardedOperator(page, url, smtp, 'offline@example.com');
    const [main] = (await (await page.request.get(`${url}/api/garages`)).json()) as Garage[];
    const [towel] = (await (await page.request.get(`${url}/api/items`)).json()) as { id: string }[];
    const [house] = (await (await page.request.get(`${url}/api/units`)).json()) as Unit[];
    const stockTowels = (quantity: number) =>
      page.request.put(`${url}/api/garages/${main!.id}/inventory`, { data: { inventory: [{ item_id: towel!.id, quantity }] } });
    expect((await stockTowels(40)).ok()).toBe(true);
    const held = async () => {
      const unit = (await (await page.request.get(`${url}/api/units/${house!.id}`)).json()) as Unit;
      const garages = (await (await page.request.get(`${url}/api/garages`)).json()) as Garage[];
      return {
        unit: unit.inventory.find((r) => r.item_id === towel!.id)?.quantity ?? 0,
        garage: garages.find((g) => g.id === main!.id)!.inventory.find((r) => r.item_id === towel!.id)?.quantity ?? 0,
      };
    };

    // Online first: the property's page is read, and the service worker takes the page over.
    await page.goto(`${url}/unit/${house!.id}`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const row = page.getByTestId('unit-stock-row').filter({ hasText: 'Bath Towel' });
    const count = row.getByRole('group', { name: 'Stock of Bath Towel' });
    await expect(count).toHaveText('0');
    // The count screen opened once online, so that what it needs (the items) is on the phone.
    await page.getByRole('link', { name: 'Count', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Count Beach House' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Beach House' }).click();
    await expect(count).toHaveText('0');

    await context.setOffline(true);
    const plus = row.getByRole('button', { name: 'Increase Bath Towel' });
    // Ten taps in two bursts, each burst in one task so that machine load cannot split it.
    await plus.evaluate((button: HTMLElement) => {
      for (let i = 0; i < 6; i++) button.click();
    });
    await expect(count).toHaveText('6');
    await expect(page.getByText('1 change waiting to be sent')).toBeVisible();
    await plus.evaluate((button: HTMLElement) => {
      for (let i = 0; i < 4; i++) button.click();
    });
    await expect(count).toHaveText('10');
    await expect(page.getByText('2 changes waiting to be sent')).toBeVisible();
    await row.getByLabel('Quantity of Bath Towel to move from Main Storage').fill('3');
    await row.getByRole('button', { name: 'Restock', exact: true }).click();
    await expect(count).toHaveText('13');
    await expect(page.getByText('3 changes waiting to be sent')).toBeVisible();
    await expect(page.getByText('Saved on this phone. It will be sent when the network is back.').first()).toBeVisible();

    // A count made offline: one towel missing.
    await page.getByRole('link', { name: 'Count', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Count Beach House' })).toBeVisible();
    const towelCount = page.getByTestId('count-row').filter({ hasText: 'Bath Towel' }).getByLabel('Counted Bath Towel');
    await expect(towelCount).toHaveValue('13');
    await towelCount.fill('12');
    await page.getByRole('button', { name: 'Save count' }).click();
    await page.getByRole('dialog', { name: 'Save count' }).getByRole('button', { name: 'Save count' }).click();
    await expect(page.getByText('4 changes waiting to be sent')).toBeVisible();

    // A reload without a network loses nothing.
    await page.reload();
    await expect(page.getByText('4 changes waiting to be sent')).toBeVisible();
    const kept = await keptChanges(page);
    expect(kept).toHaveLength(4);
    expect(await held()).toEqual({ unit: 0, garage: 40 });

    // The network is back: sent in order, each once.
    await context.setOffline(false);
    await expect.poll(async () => (await keptChanges(page)).length, { timeout: 30_000 }).toBe(0);
    await expect(page.getByText(/waiting to be sent/)).toHaveCount(0);
    expect(await held()).toEqual({ unit: 12, garage: 27 });

    // The same four sent again: answered by their keys, nothing written twice.
    await putBack(page, kept);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(async () => (await keptChanges(page)).length, { timeout: 30_000 }).toBe(0);
    expect(await held()).toEqual({ unit: 12, garage: 27 });

    // Offline again: a restock of 5 that the garage cannot cover once someone empties it meanwhile.
    await page.goto(`${url}/unit/${house!.id}`);
    await expect(count).toHaveText('12');
    await context.setOffline(true);
    await row.getByLabel('Quantity of Bath Towel to move from Main Storage').fill('5');
    await row.getByRole('button', { name: 'Restock', exact: true }).click();
    await expect(page.getByText('1 change waiting to be sent')).toBeVisible();
    expect((await stockTowels(0)).ok()).toBe(true);
    await context.setOffline(false);
    await expect(page.getByRole('link', { name: '1 not sent' })).toBeVisible({ timeout: 30_000 });

    // Signing out with a change kept asks first; staying leads to the list.
    await page.goto(`${url}/signout`);
    await expect(page.getByText('1 stock change made on this phone has not been sent yet. Signing out discards it.')).toBeVisible();
    await page.getByRole('link', { name: 'Stay signed in' }).click();
    await expect(page).toHaveURL(`${url}/pending-changes`);
    const refused = page.getByRole('listitem').filter({ hasText: '5 Bath Towel moved from Main Storage' });
    await expect(refused).toContainText('Refused: Not enough stock available in garage');
    await refused.getByRole('button', { name: /Discard/ }).click();
    await page.getByRole('dialog', { name: 'Discard Change' }).getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByText('No change was refused.')).toBeVisible();
    expect(await held()).toEqual({ unit: 12, garage: 0 });
  } finally {
    await server.stop();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
