/**
 * Getting around (docs/product.md "Screens: Route table"), on the demo data: on a phone (390 × 844,
 * touch) the bottom tab bar reaches Dashboard, Units, Garages and Forecast in one tap each, More
 * opens the menu, and the bar never covers the end of a long page; on a 1280 × 900 laptop every
 * sidebar destination is visible and is what a click at its centre lands on.
 */
import { expect, test, type Page } from '@playwright/test';
import { onDemoData } from './fixtures/demo-session';
import { MIN_TARGET_PX } from './fixtures/targets';

/** Waits for the signed-in dashboard. */
const onDashboard = (page: Page) => expect(page.getByTestId('unit-alerts')).toBeVisible();

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the tab bar reaches each screen in one tap, More opens the menu, and nothing hides behind it', async ({ page }) => {
    await onDemoData(page, 'phone-navigation', async () => {
      await onDashboard(page);
      const tabs = page.getByRole('navigation', { name: 'Tabs' });
      await expect(tabs).toBeVisible();

      for (const [tab, title] of [
        ['Units', 'Units'],
        ['Garages', 'Garages'],
        ['Forecast', 'Forecast'],
        ['Dashboard', 'Dashboard'],
      ] as const) {
        const link = tabs.getByRole('link', { name: tab });
        const box = (await link.boundingBox())!;
        expect(box.width, `${tab} tab width`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
        expect(box.height, `${tab} tab height`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
        await link.tap();
        await expect(page).toHaveTitle(`${title} · Inventory Manager`);
        await expect(link).toHaveAttribute('aria-current', 'page');
        await expect(tabs.locator('[aria-current="page"]')).toHaveCount(1);
      }

      // More opens the menu with the other destinations; choosing one closes it.
      const more = tabs.getByRole('button', { name: 'More' });
      await more.tap();
      const menu = page.locator('#app-sidebar');
      await expect(more).toHaveAttribute('aria-expanded', 'true');
      const items = menu.getByRole('link', { name: 'Items' });
      await expect(items).toBeInViewport();
      await items.tap();
      await expect(page).toHaveTitle('Items · Inventory Manager');
      await expect(more).toHaveAttribute('aria-expanded', 'false');

      // A long page scrolled to its end: its last element ends above the tab bar.
      await tabs.getByRole('link', { name: 'Forecast' }).tap();
      await expect(page.getByTestId('forecast-property').first()).toBeVisible();
      // The content's end (the screen's own last element) measured scrolled to the very bottom,
      // again until the list has finished growing.
      const measure = () =>
        page.evaluate(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          const content = document.querySelector('main > div')!.getBoundingClientRect();
          const bar = document.querySelector('[data-testid="bottom-tabs"]')!.getBoundingClientRect();
          return { lastBottom: content.bottom, tabsTop: bar.top, overflow: document.documentElement.scrollHeight - window.innerHeight };
        });
      await expect.poll(async () => { const m = await measure(); return m.lastBottom <= m.tabsTop; }).toBe(true);
      const { lastBottom, tabsTop, overflow } = await measure();
      expect(overflow, 'the page is longer than the screen').toBeGreaterThan(0);
      console.log(`phone navigation: last element ends at ${Math.round(lastBottom)} px, tab bar starts at ${Math.round(tabsTop)} px`);
    });
  });
});

test.describe('laptop', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('every sidebar destination is visible and clickable at its centre', async ({ page }) => {
    await onDemoData(page, 'laptop-navigation', async () => {
      await onDashboard(page);
      await expect(page.getByTestId('bottom-tabs')).toBeHidden();
      const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
      expect(await links.count()).toBe(9);
      for (const link of await links.all()) {
        await link.scrollIntoViewIfNeeded();
        await expect(link).toBeInViewport({ ratio: 1 });
        const hit = await link.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        });
        expect(hit, `${await link.textContent()} is what a click at its centre lands on`).toBe(true);
      }
    });
  });
});
