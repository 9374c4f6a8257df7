/**
 * The stock journey in Chromium against the real server: after setup, add an item, a garage
 * with stock and a unit with stock; plus and minus on the unit page move the garage's stock with
 * it (two quick minus taps are one use of 2); the dashboard shows the alerts and activity those actions caused. Then the demo data
 * (`npm run seed:demo`) gives the demo operator a full dashboard.
 */
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { onDemoData } from './fixtures/demo-session';
import { onboardedOperator } from './fixtures/account';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';


test('items, storage, a property, plus and minus, and the dashboard', async ({ page }) => {
  const dataDir = await migratedDataDir('stock');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  const { url } = server;
  try {
    await onboardedOperator(page, url, smtp, 'stock@example.com');

    // Items: add Hand Soap.
    await page.goto(`${url}/items`);
    await page.getByRole('button', { name: 'Add Item' }).click();
    await page.getByLabel('Item Name').fill('Hand Soap');
    await page.getByLabel('Count Cost ($)').fill('2.25');
    await page.getByLabel('Category').fill('Bath');
    await page.getByLabel('Minimum Threshold').fill('3');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('Item added successfully')).toBeVisible();
    await expect(page.getByRole('row', { name: /Hand Soap/ })).toContainText('$2.25');

    // Storage: Annex with 10 soaps.
    await page.goto(`${url}/garages`);
    await page.getByRole('button', { name: 'Add Garage' }).click();
    const garageDialog = page.getByRole('dialog', { name: 'Add Garage' });
    await garageDialog.getByLabel('Garage Name').fill('Annex');
    await garageDialog.getByLabel('Address').fill('5 Side Street');
    await garageDialog.getByRole('button', { name: 'Add Item' }).click();
    await garageDialog.getByLabel('Item').selectOption({ label: 'Hand Soap' });
    await garageDialog.getByLabel('Quantity').fill('10');
    await garageDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Garage and inventory added successfully')).toBeVisible();
    const annex = page.getByTestId('garage-card').filter({ hasText: 'Annex' });
    await expect(annex).toContainText('Hand Soap');
    await expect(annex).toContainText('10');

    // Property: Lake Cabin on the Annex with 2 soaps (low: threshold 3).
    await page.goto(`${url}/add-unit`);
    await page.getByLabel('Unit Name').fill('Lake Cabin');
    await page.getByLabel('Address').fill('7 Lake Road');
    await page.getByLabel('Garage').selectOption({ label: 'Annex - 5 Side Street' });
    await page.getByRole('button', { name: 'Add Item' }).click();
    await page.getByLabel('Item').selectOption({ label: 'Hand Soap' });
    await page.getByLabel('Quantity').fill('2');
    await expect(page.getByTestId('stock-row')).toContainText(/low/i);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Unit and inventory added successfully')).toBeVisible();
    await expect(page).toHaveURL(`${url}/units`);

    // Unit page: plus moves one soap from the Annex; two quick minus taps use two, in one change.
    await page.getByTestId('unit-card').filter({ hasText: 'Lake Cabin' }).getByRole('link', { name: 'View Details' }).click();
    const soap = page.getByTestId('unit-stock-row').filter({ hasText: 'Hand Soap' });
    await expect(soap).toContainText('2');
    await page.getByRole('button', { name: 'Increase Hand Soap' }).click();
    await expect(soap).toContainText('3');
    await expect(soap).toContainText('9 in garage');
    // Both taps in one task, so a loaded machine cannot space them past the pause that ends a burst.
    await page.getByRole('button', { name: 'Decrease Hand Soap' }).evaluate((button: HTMLElement) => {
      button.click();
      button.click();
    });
    await expect(soap).toContainText('1');
    await expect(soap).toContainText('9 in garage');
    await page.goto(`${url}/garages`);
    await expect(page.getByTestId('garage-card').filter({ hasText: 'Annex' })).toContainText('9');

    // Dashboard: the alert and the activity those actions caused.
    await page.goto(`${url}/`);
    await expect(page.getByTestId('stat-total-units')).toHaveText('2');
    await expect(page.getByTestId('stat-total-items')).toHaveText('2');
    await expect(page.getByTestId('unit-alerts')).toContainText('Hand Soap is low in Lake Cabin');
    const activity = page.getByTestId('recent-activity');
    await expect(activity).toContainText('Hand Soap changed by -2 in Lake Cabin');
    await expect(activity).toContainText('Hand Soap changed by +1 in Lake Cabin');
    await expect(activity).toContainText('Hand Soap changed by -1 in Annex');
  } finally {
    await server.stop();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the demo operator sees a full dashboard', async ({ page }) => {
  await onDemoData(page, 'demo', async (server) => {
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(page.getByTestId('stat-total-units')).toHaveText('15');
  await expect(page.getByTestId('stat-total-items')).not.toHaveText('0');
  await expect(page.getByTestId('unit-alerts')).toContainText(/ is (low|critical) in /);
  await expect(page.getByTestId('recent-activity')).toContainText(/ changed by [+-]\d+ in /);
  await expect(page.getByTestId('unit-alerts')).toContainText(/Page 1 of \d+/);
  // The forecast card, loaded after the first paint, is part of the full dashboard too; and a
  // server stopped while its answer is being computed would wait for it.
  await expect(page.getByTestId('forecast-card-count').or(page.getByText(/No unit runs short/))).toBeVisible();
  });
});
