/**
 * Tomorrow's pick list on a phone (390 × 844, touch) on the demo data (docs/product.md "Screens:
 * Pick list"): from the Dashboard, through the tab bar and the Garages list, a property the
 * storage cannot fully serve is delivered with the quantities as pre-filled — what the storage
 * holds — and its card names what was left behind; the list goes back to Garages, and read again it
 * still lists the property with what was left behind, short. Counts the taps and the scroll.
 */
import { expect, test } from '@playwright/test';
import type { PickListAnswer } from '../common/contracts/forecast';
import { itemNames, lineShortfalls } from '../common/pick-list';
import { onDemoData } from './fixtures/demo-session';
import { measureScroll } from './fixtures/scroll';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('delivering tomorrow’s pick list to a property the storage cannot fully serve, on the demo data', async ({ page }) => {
  await onDemoData(page, 'phone-pick-list', async (server) => {
    await expect(page.getByTestId('unit-alerts')).toBeVisible();
    // The garage and property to deliver, read as the screen reads them: a property with a line
    // the storage cannot cover and another it can.
    const garages = (await (await page.request.get(`${server.url}/api/garages`)).json()) as { id: string; name: string }[];
    let target: { garage: { id: string; name: string }; property: string; short: { name: string; pieces: number } } | undefined;
    for (const garage of garages) {
      const answer = (await (await page.request.get(`${server.url}/api/garages/${garage.id}/pick-list`)).json()) as PickListAnswer;
      const shortOf = lineShortfalls(answer);
      const nameOf = itemNames(answer);
      for (const property of answer.properties) {
        const short = property.lines.find((l) => shortOf(property.unit_id, l.item_id) > 0);
        const served = property.lines.some((l) => l.bring - shortOf(property.unit_id, l.item_id) > 0);
        if (short && served) {
          target = { garage, property: property.unit_name, short: { name: nameOf(short.item_id), pieces: shortOf(property.unit_id, short.item_id) } };
          break;
        }
      }
      if (target) break;
    }
    expect(target, 'a demo property that tomorrow’s pick list cannot fully serve').toBeDefined();
    const { garage, property, short } = target!;

    const scrolled = await measureScroll(page);
    let taps = 0;
    await page.getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name: 'Garages' }).tap();
    taps++;
    await page.getByRole('link', { name: `Pick list of ${garage.name}`, exact: true }).tap();
    taps++;
    await expect(page.getByRole('heading', { level: 1, name: `Pick list: ${garage.name}` })).toBeVisible();
    const card = page.getByTestId('pick-list-property').filter({ hasText: property });
    await card.getByRole('button', { name: /^Mark as delivered/ }).tap();
    taps++;
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Mark as delivered' }).tap();
    taps++;
    const delivered = page.getByTestId('pick-list-property').filter({ hasText: property });
    await expect(delivered.getByTestId('pick-list-delivered')).toBeVisible();
    await expect(delivered.getByTestId('pick-list-left-behind')).toContainText(`${short.pieces} ${short.name}`);
    // The app moves between screens without loading a page, so one count covers the whole task.
    const scroll = await scrolled();
    console.log(`phone pick list: ${taps} taps, 0 typed, ${scroll} px scrolled (${garage.name} → ${property}, left behind ${short.pieces} ${short.name})`);
    expect(taps).toBeLessThanOrEqual(6);

    await page.getByRole('link', { name: 'Back to Garages' }).tap();
    await expect(page).toHaveTitle('Garages · Inventory Manager');

    // What was left behind is still short when the list is read again (a new page load): the
    // property stays on tomorrow's list with that item, and the storage still cannot cover it.
    await page.reload();
    await page.getByRole('link', { name: `Pick list of ${garage.name}`, exact: true }).tap();
    const again = page.getByTestId('pick-list-property').filter({ hasText: property });
    await expect(again).toContainText(short.name);
    await expect(again).toContainText(`${garage.name} is short by ${short.pieces}`);
  });
});
