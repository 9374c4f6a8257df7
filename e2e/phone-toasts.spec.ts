/**
 * Toasts on a phone (390 × 844, touch), docs/product.md "Messages", decision 053: on the demo data,
 * three quick stock changes leave at most two toasts, none over the header or its menu button; an
 * error stays past 6 s until closed with its 44 px button; a tap with the network cut says the
 * network is at fault and that the change is kept on the phone.
 */
import { expect, test, type Locator } from '@playwright/test';
import type { Unit } from '../common/contracts/stock';
import { onDemoData } from './fixtures/demo-session';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

type Box = { x: number; y: number; width: number; height: number };

/** Whether two boxes share any pixel. */
function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The box of `locator`, which must be on screen. */
async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

test('toasts on a phone: two at most, clear of the header, errors until closed, the network named', async ({ page }) => {
  await onDemoData(page, 'toasts', async (server) => {
  await expect(page).toHaveURL(`${server.url}/`);
  const units = (await (await page.request.get(`${server.url}/api/units`)).json()) as { id: string }[];
  const unit = (await (await page.request.get(`${server.url}/api/units/${units[0]!.id}`)).json()) as Unit;
  const held = unit.inventory.filter((r) => r.quantity > 1).map((r) => r.item_name);
  expect(held.length).toBeGreaterThanOrEqual(5);
  await page.goto(`${server.url}/unit/${unit.id}`);
  const rows = page.getByTestId('unit-stock-row');
  const minus = (item: string) => rows.filter({ has: page.getByText(item, { exact: true }) }).getByRole('button', { name: `Decrease ${item}` });
  // A toast's bar: its message (role status), icon and buttons.
  const toasts = page.locator('.app-toasts [role="status"]').locator('xpath=..');
  const header = page.locator('header').filter({ has: page.getByRole('button', { name: 'Open menu' }) });
  const menu = page.getByRole('button', { name: 'Open menu' });

  // Three quick stock changes: the third toast closes the first one.
  for (const item of held.slice(0, 3)) await minus(item).click();
  await expect(toasts.filter({ hasText: held[2]! })).toBeVisible();
  await expect(toasts).toHaveCount(2, { timeout: 2000 });
  await expect(toasts.filter({ hasText: held[0]! })).toHaveCount(0);
  // Undo still works from a toast.
  await toasts.filter({ hasText: held[2]! }).getByRole('button', { name: 'Undo' }).click();
  await expect(toasts.filter({ hasText: 'Change undone' })).toBeVisible();
  // The boxes once the closed toasts have gone (their exit slides up, clipped at the header).
  await expect(toasts.filter({ hasText: held[2]! })).toHaveCount(0);
  const headerBox = await box(header);
  const menuBox = await box(menu);
  const figures: string[] = [];
  for (const shown of await toasts.all()) {
    const b = await box(shown);
    expect(overlap(b, headerBox), 'a toast over the header').toBe(false);
    expect(overlap(b, menuBox), 'a toast over the menu button').toBe(false);
    expect(b.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
    figures.push(`${Math.round(b.y)}–${Math.round(b.y + b.height)} px`);
  }
  console.log(`toasts at 390 × 844: ${figures.join(', ')}; header 0–${Math.round(headerBox.y + headerBox.height)} px`);

  // A refusal is an error: still there after 6 s, closed by its 44 px ✕.
  await page.route('**/api/units/*/inventory/*/consume', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'CONFLICT', message: 'Not enough stock at the unit' } }) }),
  );
  await minus(held[3]!).click();
  const error = toasts.filter({ hasText: 'Not enough stock at the unit' });
  await expect(error).toBeVisible();
  await page.waitForTimeout(6500);
  await expect(error).toBeVisible();
  const close = error.getByRole('button', { name: 'Close message' });
  const closeBox = await box(close);
  expect(Math.min(closeBox.width, closeBox.height)).toBeGreaterThanOrEqual(44);
  await close.click();
  await expect(error).toHaveCount(0);

  // The network cut under a tap: the toast says so, and that the change is kept to be sent later.
  await page.unroute('**/api/units/*/inventory/*/consume');
  await page.route('**/api/units/*/inventory/*/consume', (route) => route.abort('internetdisconnected'));
  await minus(held[4]!).click();
  await expect(toasts.filter({ hasText: 'Saved on this phone. It will be sent when the network is back.' })).toBeVisible();
  await expect(toasts.filter({ hasText: 'Failed to update quantity' })).toHaveCount(0);
  });
});
