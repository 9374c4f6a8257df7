/**
 * The AI photo scanner on a phone (docs/product.md "Screens: AI photo scanner", decision 035), against the
 * fake OpenAI-compatible server: a photo uploaded from the unit card is sent downscaled, the
 * confirmation is edited (a quantity corrected, an item removed) and confirmed, and the unit goes up
 * and its garage down by the same amounts; then a photo taken with Chromium's fake camera on Unit
 * detail, a count above the garage's stock refused with the spec's message, and a fitting one
 * applied; leaving the confirmation asks first. Without an AI key the scanner says it is not
 * configured.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import config from '../playwright.config';
import { allowedItemIds, startFakeOpenAi } from '../server/test/fake-openai';
import { onboardedOperator } from './fixtures/account';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';

const base = config.use?.launchOptions ?? {};
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  // A fake camera (a moving test pattern) that needs no permission prompt.
  launchOptions: { ...base, args: [...(base.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] },
});

const PHOTO = join(import.meta.dirname, 'fixtures', 'shelf.jpg');

/**
 * Records the photo of every multipart request the page sends (Chromium does not hand Playwright
 * the body of a request with a file in it): its type, size in pixels and bytes.
 */
async function recordUploads(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sent: { type: string; width: number; height: number; bytes: number }[] = [];
    (window as unknown as { scanUploads: typeof sent }).scanUploads = sent;
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const photo = init?.body instanceof FormData ? init.body.get('photo') : null;
      if (photo instanceof Blob) {
        const bitmap = await createImageBitmap(photo);
        sent.push({ type: photo.type, width: bitmap.width, height: bitmap.height, bytes: photo.size });
      }
      return original(input, init);
    };
  });
}

const uploads = (page: Page) =>
  page.evaluate(() => (window as unknown as { scanUploads: { type: string; width: number; height: number; bytes: number }[] }).scanUploads);

async function stockOf(page: Page, url: string, unitId: string) {
  const unit = (await (await page.request.get(`${url}/api/units/${unitId}`)).json()) as { inventory: { item_name: string; quantity: number }[] };
  const garages = (await (await page.request.get(`${url}/api/garages`)).json()) as { inventory: { item_name: string; quantity: number }[] }[];
  const named = (rows: { item_name: string; quantity: number }[]) => Object.fromEntries(rows.map((r) => [r.item_name, r.quantity]));
  return { unit: named(unit.inventory), garage: named(garages[0]!.inventory) };
}

test('scan a photo into a unit from an upload and from the camera, confirm, and stock moves from the garage', async ({ page }) => {
  const dataDir = await migratedDataDir('scan');
  const smtp = await startSmtpSink();
  const fake = await startFakeOpenAi();
  const server = await startServer(await freePort(), {
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    OPENAI_API_KEY: 'sk-e2e-scanner',
    OPENAI_BASE_URL: fake.url,
  });
  const { url } = server;
  try {
    await onboardedOperator(page, url, smtp, 'scanner@example.com');
    const pods = await page.request.post(`${url}/api/items`, { data: { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10 } });
    expect(pods.ok(), await pods.text()).toBe(true);
    const items = (await (await page.request.get(`${url}/api/items`)).json()) as { id: string; name: string }[];
    const idOf = (name: string) => items.find((i) => i.name === name)!.id;
    const [garage] = (await (await page.request.get(`${url}/api/garages`)).json()) as { id: string }[];
    const [unit] = (await (await page.request.get(`${url}/api/units`)).json()) as { id: string }[];
    const put = await page.request.put(`${url}/api/garages/${garage!.id}/inventory`, {
      data: { inventory: [{ item_id: idOf('Bath Towel'), quantity: 20 }, { item_id: idOf('Coffee Pods'), quantity: 30 }] },
    });
    expect(put.ok()).toBe(true);
    // The model sees 4 towels and 12 pods, whatever the photo.
    fake.reply = (body) =>
      JSON.stringify({
        items: allowedItemIds(body).map((id) => (id === idOf('Bath Towel') ? { item_id: id, quantity: 4, confidence: 0.92 } : { item_id: id, quantity: 12, confidence: 0.55 })),
      });
    await recordUploads(page);

    // Upload from the unit card.
    await page.goto(`${url}/units`);
    await page.getByTestId('unit-card').filter({ hasText: 'Beach House' }).getByRole('button', { name: 'Quick Scan Items' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'AI-Powered Inventory Scanner' })).toBeVisible();
    await expect(dialog).toContainText('Take a photo or upload an image of your inventory items for automatic detection.');
    await expect(dialog.getByRole('button', { name: 'Upload Image' })).toBeVisible();
    await dialog.getByLabel('Photo to scan').setInputFiles(PHOTO);
    await expect(dialog.getByRole('heading', { name: 'Confirm Items' })).toBeVisible();
    // The 1600 × 1200 fixture left the browser as an 800 × 600 JPEG.
    expect(await uploads(page)).toMatchObject([{ type: 'image/jpeg', width: 800, height: 600 }]);
    expect((await uploads(page))[0]!.bytes).toBeLessThan(46_134);
    await expect(dialog.getByRole('img', { name: 'The scanned photo' })).toBeVisible();
    const towelRow = dialog.getByTestId('scan-row').filter({ hasText: 'Bath Towel' });
    const podRow = dialog.getByTestId('scan-row').filter({ hasText: 'Coffee Pods' });
    await expect(towelRow).toContainText('Confidence: 92%');
    await expect(towelRow).toContainText('Available in Garage: 20');
    await expect(podRow).toContainText('worth a second look');
    await towelRow.getByLabel('Quantity of Bath Towel').fill('0');
    await expect(towelRow.getByRole('alert')).toHaveText('Quantity must be at least 1');
    await expect(dialog.getByRole('button', { name: 'Confirm & Update' })).toBeDisabled();
    await towelRow.getByLabel('Quantity of Bath Towel').fill('5');
    await podRow.getByRole('button', { name: 'Remove Coffee Pods' }).click();
    await expect(podRow).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Confirm & Update' }).click();
    await expect(page.getByText('Inventory updated successfully')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    expect(await stockOf(page, url, unit!.id)).toEqual({ unit: { 'Bath Towel': 5 }, garage: { 'Bath Towel': 15, 'Coffee Pods': 30 } });

    // The camera on Unit detail.
    await page.goto(`${url}/unit/${unit!.id}`);
    await page.getByRole('button', { name: 'Scan Items' }).click();
    await dialog.getByRole('button', { name: 'Take Photo' }).click();
    await expect(dialog.getByRole('button', { name: 'Capture' })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Capture' }).click();
    await expect(dialog.getByRole('heading', { name: 'Confirm Items' })).toBeVisible();
    const [captured] = await uploads(page);
    expect(captured!.type).toBe('image/jpeg');
    expect(captured!.width).toBeLessThanOrEqual(800);
    const cameraTowels = dialog.getByTestId('scan-row').filter({ hasText: 'Bath Towel' });
    // Leaving the confirmation by a slip asks first.
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('alert')).toContainText('Discard these counts?');
    await dialog.getByRole('button', { name: 'Keep Editing' }).click();
    await expect(dialog.getByRole('button', { name: 'Confirm & Update' })).toBeVisible();
    await cameraTowels.getByLabel('Quantity of Bath Towel').fill('16');
    await expect(cameraTowels.getByText('Available in Garage: 15')).toHaveAttribute('data-fit', 'short');
    await dialog.getByRole('button', { name: 'Remove Coffee Pods' }).click();
    await dialog.getByRole('button', { name: 'Confirm & Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Some items exceed available garage stock: Bath Towel' })).toBeVisible();
    expect(await stockOf(page, url, unit!.id)).toEqual({ unit: { 'Bath Towel': 5 }, garage: { 'Bath Towel': 15, 'Coffee Pods': 30 } });
    await cameraTowels.getByLabel('Quantity of Bath Towel').fill('2');
    await expect(cameraTowels.getByText('Available in Garage: 15')).toHaveAttribute('data-fit', 'enough');
    await dialog.getByRole('button', { name: 'Confirm & Update' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Stock of Bath Towel' })).toHaveText('7');
    expect(await stockOf(page, url, unit!.id)).toEqual({ unit: { 'Bath Towel': 7 }, garage: { 'Bath Towel': 13, 'Coffee Pods': 30 } });
    expect(fake.requests).toHaveLength(2);
  } finally {
    await server.stop();
    await fake.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('without an AI key the scanner says photo counting is not configured', async ({ page }) => {
  const dataDir = await migratedDataDir('scan-off');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, OPENAI_API_KEY: '' });
  try {
    await onboardedOperator(page, server.url, smtp, 'no-key@example.com');
    await page.goto(`${server.url}/units`);
    await page.getByRole('button', { name: 'Quick Scan Items' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('note')).toHaveText(/not configured on this server/);
    await expect(dialog.getByRole('button', { name: 'Upload Image' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  } finally {
    await server.stop();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
