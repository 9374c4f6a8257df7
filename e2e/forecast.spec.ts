/**
 * The forecast on the demo data (docs/product.md "Screens: Forecast", "Screens: Pick list"), at
 * phone (390 × 844) and desktop sizes: the Forecast shows a property that would start a check-in
 * short, its garage's pick list for tomorrow opens from there (or, when the demo's garages hold
 * none of what tomorrow lacks, the first pick list of the week that has a line to supply), one
 * property is marked as delivered, and its stock goes up and the garage's down by what was
 * delivered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { ForecastAnswer, PickListAnswer } from '../common/contracts/forecast';
import type { Garage, Unit } from '../common/contracts/stock';
import { garageQuantities, itemNames } from '../common/pick-list';
import { signInThroughPage } from './fixtures/account';
import { seedDemo } from './fixtures/demo';
import { freePort, startServer } from './fixtures/server';

const sizes = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

/** Signs in, opens the Forecast, then a pick list from it, and delivers one line of one property. */
async function deliverOneProperty(browser: Browser, url: string, login: { email: string; password: string }, size: keyof typeof sizes) {
  const context = await browser.newContext(sizes[size]);
  const page = await context.newPage();
  try {
    await signInThroughPage(page, url, login.email, login.password);
    await expect(page.getByTestId('forecast-card')).toContainText('Runs out before a check-in');

    await page.goto(`${url}/forecast`);
    await expect(page).toHaveTitle('Forecast · Inventory Manager');
    const first = page.getByTestId('forecast-property').first();
    await expect(first).toContainText(/Check-in \w{3}, \w{3} \d+/);
    await expect(first).toContainText(/Runs out before the check-in on|Below minimum at the check-in on/);
    await expect(first).toContainText(/Bring \d+/);

    // The service level the pick lists bring for: the owner changes it, and it is kept.
    const level = page.getByLabel('Service level');
    await expect(level).toHaveValue('95');
    await expect(page.getByTestId('service-level')).toContainText('Pick lists bring enough for a 95 % chance that an arriving stay finds every item it needs.');
    if (size === 'desktop') {
      await level.selectOption('98');
      await expect(page.getByRole('status').filter({ hasText: 'Service level set to 98 %' })).toBeVisible();
      await page.reload();
      await expect(page.getByLabel('Service level')).toHaveValue('98');
      await page.getByLabel('Service level').selectOption('95');
      await expect(page.getByRole('status').filter({ hasText: 'Service level set to 95 %' })).toBeVisible();
    }

    await page.getByRole('link', { name: /^Pick list: / }).first().click();
    await expect(page).toHaveTitle('Pick list · Inventory Manager');
    await expect(page.getByRole('heading', { level: 1, name: /^Pick list: / })).toBeVisible();

    // What the screen shows, read from the API: a property with a line the garage holds. The
    // demo's stock depends on the day it was made, so the garage linked first may hold none of
    // what tomorrow's arrivals lack: then another garage of the Forecast or a later day of the
    // week, opened by its address.
    const { pickList, date } = await suppliablePickList(page, url, new URL(page.url()).pathname.split('/')[2]!);
    const garageId = pickList.garage_id;
    if (date !== undefined || !page.url().includes(garageId)) {
      await page.goto(`${url}/garages/${garageId}/pick-list${date === undefined ? '' : `?date=${date}`}`);
      await expect(page.getByRole('heading', { level: 1, name: /^Pick list: / })).toBeVisible();
    }
    const inGarage = garageQuantities(pickList);
    const property = pickList.properties.find((p) => p.lines.some((line) => line.bring > 0 && inGarage(line.item_id) > 0))!;
    const line = property.lines.find((l) => l.bring > 0 && inGarage(l.item_id) > 0)!;
    const nameOf = itemNames(pickList);
    const lineName = nameOf(line.item_id);
    const quantity = Math.min(line.bring, inGarage(line.item_id), 3);
    const unitBefore = (await (await page.request.get(`${url}/api/units/${property.unit_id}`)).json()) as Unit;
    const garagesBefore = (await (await page.request.get(`${url}/api/garages`)).json()) as Garage[];
    const held = (unit: Unit) => unit.inventory.find((row) => row.item_id === line.item_id)?.quantity ?? 0;
    const stored = (garages: Garage[]) => garages.find((g) => g.id === garageId)!.inventory.find((row) => row.item_id === line.item_id)!.quantity;

    // Only that line, the others set to 0 on the number pad.
    const card = page.getByTestId('pick-list-property').filter({ hasText: property.unit_name });
    await expect(card.getByTestId('pick-list-service')).toHaveText(/^(\+\d+ pieces?: \d+ % instead of \d+ %|\d+ % sure no arrival runs short)$/);
    for (const other of property.lines) {
      const input = card.getByLabel(nameOf(other.item_id), { exact: true });
      await expect(input).toHaveAttribute('inputmode', 'numeric');
      await input.fill(other.item_id === line.item_id ? String(quantity) : '0');
    }
    await card.getByRole('button', { name: /^Mark as delivered/ }).click();
    const dialog = page.getByRole('dialog', { name: `Deliver to ${property.unit_name}` });
    await expect(dialog).toContainText(`${quantity} ${lineName}`);
    await dialog.getByRole('button', { name: 'Mark as delivered' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Delivered to ${property.unit_name}: ${quantity} ${lineName}` })).toBeVisible();
    await expect(card.getByTestId('pick-list-delivered')).toContainText(`${quantity} ${lineName}`);

    const unitAfter = (await (await page.request.get(`${url}/api/units/${property.unit_id}`)).json()) as Unit;
    const garagesAfter = (await (await page.request.get(`${url}/api/garages`)).json()) as Garage[];
    expect(held(unitAfter)).toBe(held(unitBefore) + quantity);
    expect(stored(garagesAfter)).toBe(stored(garagesBefore) - quantity);

    // The property's page shows the new stock.
    await page.goto(`${url}/unit/${property.unit_id}`);
    const row = page.getByTestId('unit-stock-row').filter({ has: page.getByText(lineName, { exact: true }) });
    await expect(row.getByRole('group', { name: `Stock of ${lineName}` })).toHaveText(String(held(unitAfter)));
  } finally {
    await context.close();
  }
}

/**
 * The first pick list, garage by garage of the Forecast (the one linked first, `firstGarageId`,
 * first) and day by day from tomorrow (`date` undefined) to a week ahead, with a property whose
 * garage holds some of a line it is to bring.
 */
async function suppliablePickList(page: Page, url: string, firstGarageId: string): Promise<{ pickList: PickListAnswer; date?: string }> {
  const forecast = (await (await page.request.get(`${url}/api/forecast`)).json()) as ForecastAnswer;
  const garageIds = [...new Set([firstGarageId, ...forecast.properties.flatMap((p) => (p.garage_id ? [p.garage_id] : []))])];
  const dayAfter = (days: number) => new Date(Date.parse(`${forecast.today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  for (let days = 1; days <= 7; days++) {
    for (const garageId of garageIds) {
      const date = days === 1 ? undefined : dayAfter(days);
      const pickList = (await (await page.request.get(`${url}/api/garages/${garageId}/pick-list${date ? `?date=${date}` : ''}`)).json()) as PickListAnswer;
      const inGarage = garageQuantities(pickList);
      if (pickList.properties.some((p) => p.lines.some((line) => line.bring > 0 && inGarage(line.item_id) > 0))) return { pickList, date };
    }
  }
  throw new Error('no pick list of the coming week has a line its garage can supply');
}

test('the forecast shows a property short before a check-in; a pick list delivery moves its stock (phone and desktop)', async ({ browser }) => {
  test.setTimeout(420_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'inv-e2e-forecast-'));
  try {
    const login = await seedDemo(dataDir);
    const server = await startServer(await freePort(), { DATA_DIR: dataDir });
    try {
      await test.step('phone', () => deliverOneProperty(browser, server.url, login, 'phone'));
      await test.step('desktop', () => deliverOneProperty(browser, server.url, login, 'desktop'));
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
