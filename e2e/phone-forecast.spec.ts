/**
 * Who runs out, on a phone (390 × 844, touch), on the demo data (docs/product.md "Screens:
 * Forecast", "Screens: Garages"): from the dashboard, the properties where an item runs out before
 * a check-in are found in at most 2 taps and read in at most 2,500 px of scroll, apart from those
 * only below minimum; and the Garages list summarises each garage's stock instead of listing it.
 */
import { expect, test } from '@playwright/test';
import type { ForecastAnswer } from '../common/contracts/forecast';
import type { ForecastSummary } from '../common/contracts/forecast-summary';
import type { Garage } from '../common/contracts/stock';
import { onDemoData } from './fixtures/demo-session';
import { MIN_TARGET_PX } from './fixtures/targets';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('the properties that run out, from the dashboard, and the garages list, on the demo data', async ({ page }) => {
  await onDemoData(page, 'phone-forecast', async (server) => {
  // Signed in once the dashboard's card has its count.
  await expect(page.getByTestId('forecast-card-count')).toBeVisible();
  const read = async <T>(path: string): Promise<T> => {
    const response = await page.request.get(`${server.url}${path}`);
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return (await response.json()) as T;
  };
  const summary = await read<ForecastSummary>('/api/forecast/summary');
  const forecast = await read<ForecastAnswer>('/api/forecast?horizon=7');
  const runningOut = forecast.properties.filter((p) => p.items.some((i) => i.shortfall?.kind === 'runs_out'));
  expect(runningOut.length).toBeGreaterThan(0);

  // The dashboard's card says how many properties in all and links to the full list.
  const card = page.getByTestId('forecast-card');
  const all = card.getByRole('link', { name: `See all ${summary.properties_short} units` });
  let taps = 0;
  await all.click();
  taps++;
  await expect(page).toHaveTitle('Forecast · Inventory Manager');

  // Runs out first, with its count, apart from the properties only below minimum.
  const runsOut = page.getByTestId('forecast-section-runs-out');
  await expect(runsOut.getByRole('heading', { level: 2 })).toHaveText(`Runs out before a check-in${runningOut.length}`);
  await expect(runsOut.getByTestId('forecast-property')).toHaveCount(runningOut.length);
  await expect(runsOut.getByTestId('forecast-property').first()).toContainText('Runs out before the check-in on');
  const below = page.getByTestId('forecast-section-below-minimum');
  const belowCount = forecast.properties.length - runningOut.length;
  await expect(below.getByTestId('forecast-property')).toHaveCount(belowCount);
  if (belowCount > 0) {
    const [a, b] = [await runsOut.boundingBox(), await below.boundingBox()];
    expect(a!.y).toBeLessThan(b!.y);
    await expect(below).not.toContainText('Runs out before the check-in on');
  }

  // Each property's name is a link of at least 44 px high.
  const name = runsOut.getByTestId('forecast-property').first().getByRole('link').first();
  expect((await name.boundingBox())!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);

  // The scroll it takes to read the whole "runs out" section: its bottom below the first screen.
  const sectionScroll = await runsOut.evaluate((section) => Math.max(0, Math.ceil(section.getBoundingClientRect().bottom + window.scrollY - window.innerHeight)));
  const forecastHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(
    `phone forecast: ${taps} tap(s) from the dashboard; "runs out" ${runningOut.length} properties read in ${sectionScroll} px of scroll ` +
      `(below minimum ${belowCount}; the page ${forecastHeight} px tall at 7 days)`,
  );
  expect(taps).toBeLessThanOrEqual(2);
  expect(sectionScroll).toBeLessThanOrEqual(2_500);

  // The Garages list: a summary per garage, its stock behind a tap.
  const garages = await read<Garage[]>('/api/garages');
  await page.goto(`${server.url}/garages`);
  const cards = page.getByTestId('garage-card');
  await expect(cards).toHaveCount(garages.length);
  const stocked = garages.find((g) => g.inventory.length > 0)!;
  const stockedCard = cards.filter({ hasText: stocked.name });
  await expect(stockedCard.getByTestId('garage-summary')).toContainText(`${stocked.inventory.length} items`);
  const firstRow = stockedCard.getByRole('listitem').filter({ hasText: stocked.inventory[0]!.item_name });
  await expect(firstRow).toBeHidden();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await stockedCard.getByTestId('garage-summary').click();
  await expect(firstRow).toBeVisible();
  await expect(stockedCard.getByRole('link', { name: /^Count / })).toBeVisible();
  await expect(stockedCard.getByRole('link', { name: /^Pick list / })).toBeVisible();
  console.log(`/garages at 390 × 844 with the demo's ${garages.length} garages: ${height} px tall (stock closed)`);
  expect(height).toBeLessThanOrEqual(1_500);
  });
});
