/**
 * Count mode on a phone (390 × 844), docs/product.md "Screens: Count": a unit's count with a
 * decimal refused, an item it does not hold added from the same list, search and category, stock
 * that moved while counting refused and counted again; then, on the demo data, how many taps,
 * typed characters, pixels of scroll and seconds it takes to count a 31-item garage where 4 items
 * differ (issue 32: ≤ 10 taps), leaving with a draft asking first and a reload restoring the draft.
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { onDemoData } from './fixtures/demo-session';
import { onboardedOperator } from './fixtures/account';
import { measureScroll } from './fixtures/scroll';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';


test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Accepts the browser's "leave site?" question, counting how often it was asked. */
function acceptLeaving(page: Page): { asked: () => number } {
  let asked = 0;
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'beforeunload') asked++;
    void dialog.accept();
  });
  return { asked: () => asked };
}

test('counting a unit: decimals refused, an item added, filters, and stock that moved while counting', async ({ page }) => {
  const dataDir = await migratedDataDir('count');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  const { url } = server;
  try {
    await onboardedOperator(page, url, smtp, 'count@example.com');
    const [main] = (await (await page.request.get(`${url}/api/garages`)).json()) as { id: string }[];
    const [towel] = (await (await page.request.get(`${url}/api/items`)).json()) as { id: string }[];
    const [unit] = (await (await page.request.get(`${url}/api/units`)).json()) as { id: string }[];
    const soap = await page.request.post(`${url}/api/items`, { data: { name: 'Hand Soap', category: 'Bath', minimum_threshold: 1 } });
    expect(soap.ok()).toBe(true);
    expect((await page.request.post(`${url}/api/garages/${main!.id}/count`, { data: { lines: [{ item_id: towel!.id, expected: 0, counted: 20 }] } })).ok()).toBe(true);
    expect((await page.request.post(`${url}/api/units/${unit!.id}/inventory/${towel!.id}/transfer`, { data: { quantity: 5 } })).ok()).toBe(true);

    await page.goto(`${url}/unit/${unit!.id}`);
    await page.getByRole('link', { name: 'Count', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Count Beach House' })).toBeVisible();
    const towelRow = page.getByTestId('count-row').filter({ hasText: 'Bath Towel' });
    const towelCount = towelRow.getByLabel('Counted Bath Towel');
    await expect(towelCount).toHaveValue('5');
    await expect(towelCount).toHaveAttribute('inputmode', 'numeric');

    // A decimal is refused where it is typed, and counts nothing.
    await towelCount.fill('3.5');
    await expect(towelRow.getByRole('alert')).toHaveText('Counted quantity must be a whole number');
    await expect(page.getByTestId('count-status')).toHaveText('Nothing differs yet');
    await towelCount.fill('3');
    await expect(towelRow.getByRole('alert')).toHaveCount(0);
    await expect(towelRow.getByTestId('count-difference')).toHaveText('−2');

    // Hand Soap is not stocked here: found by search and category, counted from the same list.
    await page.getByLabel('Search items').fill('soap');
    await expect(page.getByText('No item here matches the search.')).toBeVisible();
    await page.getByRole('button', { name: /Not stocked here/ }).click();
    await page.getByLabel('Category').selectOption('Bath');
    const soapRow = page.getByTestId('count-row').filter({ hasText: 'Hand Soap' });
    await soapRow.getByRole('button', { name: 'Increase Hand Soap' }).click();
    await soapRow.getByRole('button', { name: 'Increase Hand Soap' }).click();
    await page.getByLabel('Search items').fill('');
    await page.getByLabel('Category').selectOption('');
    await expect(page.getByTestId('count-status')).toHaveText('2 items differ');

    // Leaving asks; the draft stays on the device and comes back with the count screen.
    await page.getByRole('link', { name: 'Back to Beach House' }).click();
    await page.getByRole('dialog', { name: 'Leave the count?' }).getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(`${url}/unit/${unit!.id}`);
    await page.getByRole('link', { name: 'Count', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Draft from .+ restored/ })).toBeVisible();
    await expect(page.getByTestId('count-status')).toHaveText('2 items differ');

    // Meanwhile someone restocks 1 towel: the count of towels is refused, nothing is saved.
    expect((await page.request.post(`${url}/api/units/${unit!.id}/inventory/${towel!.id}/transfer`, { data: { quantity: 1 } })).ok()).toBe(true);
    await page.getByRole('button', { name: 'Save count' }).click();
    const review = page.getByRole('dialog', { name: 'Save count' });
    await expect(review).toContainText('2 items differ: −2 Bath Towel, +2 Hand Soap');
    await review.getByRole('button', { name: 'Save count' }).click();
    await expect(page.getByText('The stock of 1 counted item changed while you counted. Nothing was saved: check and save again.')).toBeVisible();
    await expect(towelRow).toContainText('Stock moved while you counted: now 6');
    await expect(towelCount).toHaveValue('3');
    await expect(towelRow.getByTestId('count-difference')).toHaveText('−3');

    // Saved the second time, with the towels' new expected quantity.
    await page.getByRole('button', { name: 'Save count' }).click();
    await expect(review).toContainText('2 items differ: −3 Bath Towel, +2 Hand Soap');
    await review.getByRole('button', { name: 'Save count' }).click();
    await expect(page.getByText('Count saved: 2 items differ: −3 Bath Towel, +2 Hand Soap')).toBeVisible();
    await expect(page).toHaveURL(`${url}/unit/${unit!.id}`);
    const after = (await (await page.request.get(`${url}/api/units/${unit!.id}`)).json()) as { inventory: { item_name: string; quantity: number }[] };
    expect(after.inventory.map((r) => [r.item_name, r.quantity])).toEqual([
      ['Bath Towel', 3],
      ['Hand Soap', 2],
    ]);
  } finally {
    await server.stop();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('counting a 31-item garage of the demo data on a phone', async ({ page }) => {
  await onDemoData(page, 'count-demo', async (server) => {
  await expect(page).toHaveURL(`${server.url}/`);
  const leaving = acceptLeaving(page);
  await page.goto(`${server.url}/garages`);
  const garage = 'Seaside Supply Garage';
  const stockBefore = async () => {
    const garages = (await (await page.request.get(`${server.url}/api/garages`)).json()) as { name: string; inventory: { item_name: string; quantity: number }[] }[];
    return new Map(garages.find((g) => g.name === garage)!.inventory.map((r) => [r.item_name, r.quantity]));
  };
  const before = await stockBefore();
  expect(before.size).toBe(31);
  // Four items differ from what the garage expects: two towels missing, one more sheet set, one
  // more toilet paper, and a case of 12 coffee pods not booked in (typed: quicker than 12 taps).
  const found = {
    'Bath Towel': before.get('Bath Towel')! - 2,
    'Queen Sheet Set': before.get('Queen Sheet Set')! + 1,
    'Toilet Paper': before.get('Toilet Paper')! + 1,
    'Coffee Pods': before.get('Coffee Pods')! + 12,
  };
  const differences = ['−2 Bath Towel', '+12 Coffee Pods', '+1 Queen Sheet Set', '+1 Toilet Paper'];

  let taps = 0;
  const tap = async (locator: Locator) => {
    await locator.click();
    taps++;
  };
  const started = Date.now();
  await tap(page.getByRole('link', { name: `Count ${garage}` }));
  await expect(page.getByRole('heading', { name: `Count ${garage}` })).toBeVisible();
  const rows = page.getByTestId('count-row');
  await expect(page.getByRole('list', { name: `Items at ${garage}` }).getByTestId('count-row')).toHaveCount(31);
  const scrolledCounting = await measureScroll(page);
  // Names in full, never cut off: every row's name fits its box.
  const cut = await rows.evaluateAll((items) => items.filter((li) => (li.querySelector('p')?.scrollWidth ?? 0) > (li.querySelector('p')?.clientWidth ?? 0)).length);
  expect(cut).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const row = (name: string) => rows.filter({ has: page.getByText(name, { exact: true }) });
  // Down the list once, as a thumb would: the rows are in name order.
  await tap(row('Bath Towel').getByRole('button', { name: 'Decrease Bath Towel' }));
  await tap(row('Bath Towel').getByRole('button', { name: 'Decrease Bath Towel' }));
  const pods = row('Coffee Pods').getByLabel('Counted Coffee Pods');
  await tap(pods);
  const typed = String(found['Coffee Pods']);
  await pods.fill(typed);
  await tap(row('Queen Sheet Set').getByRole('button', { name: 'Increase Queen Sheet Set' }));
  await tap(row('Toilet Paper').getByRole('button', { name: 'Increase Toilet Paper' }));
  await expect(page.getByTestId('count-status')).toHaveText('4 items differ');
  const countingSeconds = (Date.now() - started) / 1000;
  const countingScroll = await scrolledCounting();

  // Leaving with a draft asks first; staying keeps the count.
  await page.getByRole('link', { name: 'Back to Garages' }).click();
  const ask = page.getByRole('dialog', { name: 'Leave the count?' });
  await expect(ask).toContainText('4 items differ: ');
  for (const difference of differences) await expect(ask).toContainText(difference);
  await expect(ask).toContainText('not saved yet');
  await ask.getByRole('button', { name: 'Keep counting' }).click();
  await expect(page).toHaveURL(/\/count$/);
  // So does Back.
  await page.goBack();
  await expect(ask).toContainText('not saved yet');
  await ask.getByRole('button', { name: 'Keep counting' }).click();
  await expect(page).toHaveURL(/\/count$/);
  await expect(page.getByTestId('count-status')).toHaveText('4 items differ');

  // A reload asks the browser's question, then restores the draft.
  await page.reload();
  expect(leaving.asked()).toBe(1);
  await expect(page.getByRole('status').filter({ hasText: /^Draft from .+ restored/ })).toBeVisible();
  await expect(page.getByTestId('count-status')).toHaveText('4 items differ');
  await expect(row('Bath Towel').getByLabel('Counted Bath Towel')).toHaveValue(String(found['Bath Towel']));
  await expect(pods).toHaveValue(typed);

  const saveStarted = Date.now();
  const scrolledSaving = await measureScroll(page);
  await tap(page.getByRole('button', { name: 'Save count' }));
  const review = page.getByRole('dialog', { name: 'Save count' });
  await expect(review).toContainText('4 items differ: ');
  for (const difference of differences) await expect(review).toContainText(difference);
  const savingScroll = await scrolledSaving();
  await tap(review.getByRole('button', { name: 'Save count' }));
  const saved = page.getByText(/^Count saved: 4 items differ: /);
  await expect(saved).toBeVisible();
  for (const difference of differences) await expect(saved).toContainText(difference);
  await expect(page).toHaveURL(`${server.url}/garages`);
  const seconds = countingSeconds + (Date.now() - saveStarted) / 1000;
  const scroll = countingScroll + savingScroll;

  const after = await stockBefore();
  for (const [name, quantity] of before) expect(after.get(name), name).toBe(found[name as keyof typeof found] ?? quantity);
  expect(taps).toBeLessThanOrEqual(10);
  console.log(
    `phone count of a 31-item garage with 4 differences: ${taps} taps, ${typed.length} typed characters, ` +
      `${Math.round(scroll)} px of scroll (${Math.round(countingScroll)} counting, ${Math.round(savingScroll)} saving), ${seconds.toFixed(1)} s ` +
      `(load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`,
  );
  // The draft is gone once saved: the count screen starts afresh.
  await page.goto(`${server.url}/garages`);
  await page.getByRole('link', { name: `Count ${garage}` }).click();
  await expect(page.getByTestId('count-status')).toHaveText('Nothing differs yet');
  await expect(page.getByText(/Draft from/)).toHaveCount(0);
  });
});
