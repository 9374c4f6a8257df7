/**
 * The Reports screen in Chromium on the demo data (`scripts/seed-demo.ts`): the cost chart with
 * its two lines, the cost by unit and both status charts; custom ranges checked in the browser
 * and applied; each of the six assistant reports answered with its CSV offered (no language model
 * is configured, so the text is the computed summary); one CSV downloaded and compared with what
 * the API answers for the same request; the phone's switch between reports and chat.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { reportTypeLabels, reportTypes } from '../common/contracts/reports';
import { signInThroughPage } from './fixtures/account';
import { seedDemo } from './fixtures/demo';
import { freePort, startServer } from './fixtures/server';


/** `date` as YYYY-MM-DD in this machine's zone, which the browser shares. */
function localDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function csvLines(csv: string): string[] {
  return csv.split(/\r?\n/).filter((line) => line !== '');
}

async function checkCharts(page: Page): Promise<void> {
  const cost = page.getByTestId('cost-analysis');
  await expect(cost.getByTestId('cost-chart').locator('svg path.recharts-line-curve')).toHaveCount(2);
  await expect(cost.getByTestId('period-total')).toHaveText(/^\$[\d,]+\.\d{2}$/);
  const unitCosts = cost.getByTestId('unit-cost-card');
  await expect(unitCosts).toHaveCount(15);
  await expect(unitCosts.first()).toContainText(/Week: \$[\d,]+\.\d{2}/);
  await expect(unitCosts.first()).toContainText(/Month: \$[\d,]+\.\d{2}/);

  const units = page.getByTestId('unit-status-chart');
  await expect(units.getByRole('heading', { name: 'Unit Inventory Status' })).toBeVisible();
  await expect(units).toContainText('Tidepool Cottage');
  expect(await units.locator('.recharts-bar-rectangle').count()).toBeGreaterThanOrEqual(15);
  const garages = page.getByTestId('garage-status-chart');
  await expect(garages.getByRole('heading', { name: 'Garage Inventory Status' })).toBeVisible();
  await expect(garages).toContainText('Seaside Supply');
  await expect(garages.locator('.recharts-bar-rectangle').first()).toBeVisible();
  for (const series of ['Sufficient', 'Low Stock', 'Critical']) await expect(garages).toContainText(series);
}

async function checkCustomRange(page: Page): Promise<void> {
  const cost = page.getByTestId('cost-analysis');
  await cost.getByLabel('Period').selectOption({ label: 'Custom Range' });
  await cost.getByRole('button', { name: 'Apply Filter' }).click();
  await expect(cost.getByText('Please select both start and end dates')).toBeVisible();

  const today = new Date();
  const weekAgo = new Date(today.getTime() - 6 * 24 * 60 * 60 * 1000);
  await expect(cost.getByLabel('End Date')).toHaveAttribute('max', localDay(today));
  await cost.getByLabel('Start Date').fill(localDay(today));
  await cost.getByLabel('End Date').fill(localDay(weekAgo));
  await cost.getByRole('button', { name: 'Apply Filter' }).click();
  await expect(cost.getByText('Start date must be before end date')).toBeVisible();

  await cost.getByLabel('Start Date').fill(localDay(weekAgo));
  await cost.getByLabel('End Date').fill(localDay(today));
  const applied = page.waitForResponse((r) => r.url().includes('/api/reports/costs?period=custom') && r.ok());
  await cost.getByRole('button', { name: 'Apply Filter' }).click();
  await applied;
  await expect(cost.getByText('Start date must be before end date')).toBeHidden();
  await expect(cost.getByTestId('cost-chart').locator('svg path.recharts-line-curve')).toHaveCount(2);
  await expect(cost.getByTestId('period-total')).toHaveText(/^\$[\d,]+\.\d{2}$/);
}

async function checkAssistant(page: Page, url: string): Promise<void> {
  const assistant = page.getByTestId('report-assistant');
  await expect(assistant.getByTestId('bot-message')).toHaveText('Hi! I can help you analyze your inventory reports.');
  const generate = assistant.getByRole('button', { name: 'Generate Report' });

  for (const [index, type] of reportTypes.entries()) {
    await assistant.getByLabel('Report Type').selectOption({ label: reportTypeLabels[type] });
    await generate.click();
    const request = `${reportTypeLabels[type]} for the last 7 days (up to 50 records)`;
    await expect(assistant.getByTestId('user-message').last()).toHaveText(request);
    const reply = assistant.getByTestId('bot-message').nth(index + 1);
    await expect(reply.getByRole('heading', { name: reportTypeLabels[type] })).toBeVisible();
    await expect(reply).toContainText('No AI model is configured on this server');
    await expect(reply.getByRole('button', { name: 'Download Report CSV' })).toBeVisible();
    await expect(assistant.getByTestId('bot-typing')).toHaveCount(0);
    await expect(generate).toBeEnabled();
  }

  // Critical alerts are current stock, so the page's request and the test's own see the same rows.
  await assistant.getByLabel('Report Type').selectOption({ label: reportTypeLabels.critical });
  await assistant.getByLabel('Time Range').selectOption({ label: 'Last 14 days' });
  await assistant.getByLabel('Records').selectOption({ label: '25 records' });
  await generate.click();
  const reply = assistant.getByTestId('bot-message').nth(reportTypes.length + 1);
  const button = reply.getByRole('button', { name: 'Download Report CSV' });
  await expect(button).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^inventory_report_\d{4}-\d{2}-\d{2}\.csv$/);
  expect(download.suggestedFilename()).toBe(`inventory_report_${localDay(new Date())}.csv`);
  const saved = readFileSync(await download.path(), 'utf8');

  const res = await page.request.post(`${url}/api/reports/assistant`, { data: { type: 'critical', days: 14, limit: 25 } });
  expect(res.ok(), await res.text()).toBe(true);
  const api = (await res.json()) as { csv: string; records: number };
  expect(api.records).toBe(25);
  expect(csvLines(saved)).toEqual(csvLines(api.csv));
  expect(csvLines(saved)).toHaveLength(26);
}

test('reports on the demo data: charts, custom range, the six assistant reports and a CSV download', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'inv-e2e-reports-'));
  try {
    const { email, password } = await seedDemo(dataDir);
    // No language model: the assistant answers with its computed summary.
    const server = await startServer(await freePort(), { DATA_DIR: dataDir, OPENAI_API_KEY: '' });
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInThroughPage(page, server.url, email, password);
      await expect(page).toHaveURL(`${server.url}/`);
      await page.getByRole('link', { name: 'Reports' }).click();
      await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
      await expect(page.getByText('Inventory status, cost analysis, and usage trends')).toBeVisible();

      await checkCharts(page);
      await checkCustomRange(page);
      await checkAssistant(page, server.url);

      // A phone shows one side at a time.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.getByTestId('report-assistant')).toBeHidden();
      await page.getByRole('button', { name: 'Show AI Chat' }).click();
      await expect(page.getByTestId('report-assistant')).toBeVisible();
      await expect(page.getByTestId('cost-analysis')).toBeHidden();
      await page.getByRole('button', { name: 'Show Reports' }).click();
      await expect(page.getByTestId('cost-analysis')).toBeVisible();
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
