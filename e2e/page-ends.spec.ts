/**
 * A write the screen shows is a write kept (docs/product.md "Offline use", decision 055): on the
 * demo data at 390 × 844, a plus tap, a minus tap, a restock by quantity and an Undo, each followed
 * by the end of the page — a reload, the tab closed and a new one opened, or the network cut and
 * the page reloaded — 50, 150 or 400 ms later (each action and each ending meets every delay),
 * made right after the page's load and on a settled page. After the page is opened again every write is in the ledger exactly once: the unit's and
 * the garage's stock are exactly what the writes make them, and a key sent twice (as the page
 * ended, then by the next page) was written once. A tap the server refuses once the page is back
 * is listed as not sent, with its reason.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Garage, Unit } from '../common/contracts/stock';
import { onDemoData } from './fixtures/demo-session';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow' });

type Action = 'plus' | 'minus' | 'restock' | 'undo';
type Ending = 'reload' | 'close' | 'offline reload';
const DELAYS_MS = [50, 150, 400];

/** How many changes the phone's outbox holds (web/lib/outbox/outbox.ts: IndexedDB 'stock-keeper-outbox', store 'changes'). */
function keptCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('stock-keeper-outbox');
        open.onerror = () => reject(open.error);
        open.onupgradeneeded = () => open.result.createObjectStore('changes');
        open.onsuccess = () => {
          const read = open.result.transaction('changes').objectStore('changes').count();
          read.onsuccess = () => resolve(read.result);
          read.onerror = () => reject(read.error);
        };
      }),
  );
}

/** The stock writes the browser sent, by Idempotency-Key: the bodies sent under each key. */
function recordKeys(context: BrowserContext): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  context.on('request', (request) => {
    const key = request.headers()['idempotency-key'];
    if (request.method() !== 'POST' || !key) return;
    keys.set(key, [...(keys.get(key) ?? []), `${new URL(request.url()).pathname} ${request.postData() ?? ''}`]);
  });
  return keys;
}

for (const settled of [false, true]) {
  const when = settled ? 'on a settled page' : 'right after the page’s load';
  test(`every write shown ${when} survives the page ending 50, 150 or 400 ms later, written once`, async ({ page, context }) => {
    test.setTimeout(600_000);
    await onDemoData(page, settled ? 'page-ends-settled' : 'page-ends-load', async ({ url }) => {
      // Signed in once the page has left the sign-in screen.
      await expect(page).not.toHaveURL(/\/login/);
      const read = async <T>(path: string): Promise<T> => {
        const response = await page.request.get(`${url}${path}`);
        expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
        return (await response.json()) as T;
      };
      const units = await read<Unit[]>('/api/units');
      const garages = await read<Garage[]>('/api/garages');
      const unitWithGarage = units.find((u) => u.garage_id !== null)!;
      const unit = await read<Unit>(`/api/units/${unitWithGarage.id}`);
      const garage = garages.find((g) => g.id === unit.garage_id)!;
      const row = unit.inventory[0]!;
      // Stock enough for every trial: the unit's row and its garage's stock of the item.
      const topUp = await page.request.put(`${url}/api/garages/${garage.id}/inventory`, {
        data: { inventory: garage.inventory.map((r) => ({ item_id: r.item_id, quantity: r.item_id === row.item_id ? 500 : r.quantity })) },
      });
      expect(topUp.ok()).toBe(true);
      const held = async () => {
        const u = await read<Unit>(`/api/units/${unit.id}`);
        const g = (await read<Garage[]>('/api/garages')).find((x) => x.id === garage.id)!;
        return { unit: u.inventory.find((r) => r.item_id === row.item_id)!.quantity, garage: g.inventory.find((r) => r.item_id === row.item_id)!.quantity };
      };
      const unitUrl = `${url}/unit/${unit.id}`;
      const keys = recordKeys(context);

      // The app shell in the service worker, so that a reload without a network opens the page.
      await page.goto(unitUrl);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

      let current = page;
      const stockRow = () => current.locator(`[data-testid="unit-stock-row"][data-item-id="${row.item_id}"]`);

      /** Opens the unit's page; `settled`: waits for the page to finish its first work before acting. */
      const open = async () => {
        await current.goto(unitUrl);
        await expect(stockRow().getByRole('button', { name: `Increase ${row.item_name}` })).toBeEnabled();
        if (settled) await current.waitForLoadState('networkidle');
      };

      /** Ends the page the way `ending` says and opens the unit's page again. */
      const end = async (ending: Ending) => {
        if (ending === 'reload') {
          await current.reload();
        } else if (ending === 'close') {
          await current.close();
          current = await context.newPage();
          await current.goto(unitUrl);
        } else {
          await context.setOffline(true);
          await current.reload();
          await expect(stockRow()).toBeVisible();
          const left = await keptCount(current);
          await context.setOffline(false);
          // What the ended page left is sent by this one, and the screen says so.
          if (left > 0) await expect(current.getByText(/saved on this phone (was|were) sent\./)).toBeVisible({ timeout: 30_000 });
        }
      };

      /** Makes the write; returns the stock it should leave, from `before`. */
      const act = async (action: Action, before: { unit: number; garage: number }) => {
        const r = stockRow();
        if (action === 'plus') {
          await r.getByRole('button', { name: `Increase ${row.item_name}` }).click();
          return { unit: before.unit + 1, garage: before.garage - 1 };
        }
        if (action === 'minus') {
          await r.getByRole('button', { name: `Decrease ${row.item_name}` }).click();
          return { unit: before.unit - 1, garage: before.garage };
        }
        if (action === 'restock') {
          await r.getByLabel(`Quantity of ${row.item_name} to move from ${garage.name}`).fill('2');
          await r.getByRole('button', { name: 'Restock', exact: true }).click();
          return { unit: before.unit + 2, garage: before.garage - 2 };
        }
        // Undo: a plus tap answered, then its Undo in the toast; the two leave the stock as it was.
        await r.getByRole('button', { name: `Increase ${row.item_name}` }).click();
        const toast = current.getByRole('status').filter({ hasText: `1 ${row.item_name} moved from ${garage.name}` });
        await toast.getByRole('button', { name: 'Undo' }).click();
        return before;
      };

      const tally = { trials: 0, keysSentTwice: 0 };
      let expected = await held();
      const actions: Action[] = ['plus', 'minus', 'restock', 'undo'];
      const endings: Ending[] = ['reload', 'close', 'offline reload'];
      for (const [a, action] of actions.entries()) {
        for (const [e, ending] of endings.entries()) {
          // A Latin square: every action and every ending meets each delay; the two tests together try 24 of the 36 triples.
          const delay = DELAYS_MS[(a + e + (settled ? 1 : 0)) % DELAYS_MS.length]!;
          const label = `${action}, page ended by ${ending} ${delay} ms later, ${when}`;
          await open();
          const before = await held();
          const keysBefore = new Set(keys.keys());
          expected = await act(action, before);
          await current.waitForTimeout(delay);
          await end(ending);
          await expect.poll(() => keptCount(current), { message: `${label}: nothing left on the phone`, timeout: 30_000, intervals: [50, 100, 200] }).toBe(0);
          expect(await held(), `${label}: written exactly once`).toEqual(expected);
          // Every key this trial sent carried one change, however often it was sent.
          for (const [key, sent] of keys) {
            if (keysBefore.has(key)) continue;
            expect(new Set(sent).size, `${label}: key ${key} sent with one body`).toBe(1);
            if (sent.length > 1) tally.keysSentTwice++;
          }
          tally.trials++;
        }
      }
      // A late request of an ended page would show here.
      await current.waitForTimeout(1000);
      expect(await held()).toEqual(expected);
      console.log(`page ends ${when}: ${tally.trials} trials, each write in the ledger once; ${tally.keysSentTwice} keys sent twice and written once`);
      if (!settled) return;

      // A tap kept without a network that the server refuses when it is back: listed with the reason.
      await open();
      await context.setOffline(true);
      await stockRow().getByRole('button', { name: `Increase ${row.item_name}` }).click();
      await expect(current.getByText('1 change waiting to be sent')).toBeVisible();
      const emptied = await page.request.put(`${url}/api/garages/${garage.id}/inventory`, {
        data: { inventory: garage.inventory.map((r) => ({ item_id: r.item_id, quantity: r.item_id === row.item_id ? 0 : r.quantity })) },
      });
      expect(emptied.ok()).toBe(true);
      await current.reload();
      await context.setOffline(false);
      await current.getByRole('link', { name: '1 not sent' }).click({ timeout: 30_000 });
      await expect(current.getByRole('listitem').filter({ hasText: `1 ${row.item_name} moved from ${garage.name}` })).toContainText(
        'Refused: Not enough stock available in garage',
      );
    });
  });
}
