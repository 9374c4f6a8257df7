/**
 * Importing properties from Hostaway (docs/product.md "Import from Hostaway"), against the fake
 * Hostaway on loopback: connect, fetch 30 listings read over three pages, select all, save into
 * the garage, see the new properties on /units; open the dialog again and see them as imported;
 * see a property's upcoming stays, and a reservation changed in Hostaway arrive by webhook.
 */
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { makeListings, makeReservations, startFakeHostaway } from '../server/test/fake-hostaway';
import { onboardedOperator } from './fixtures/account';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';

test('connect to Hostaway, import every listing into the garage, and see them as imported', async ({ page }) => {
  const listings = makeListings(30);
  const fake = await startFakeHostaway({
    accounts: [{ clientId: '12345', clientSecret: 'demo-secret', listings, reservations: makeReservations(listings, new Date()) }],
    // Pages of 10 make the sync after the import about 17 requests; Hostaway's 15 per 10 s (and
    // the waits it causes) are covered by the API tests, not by this journey.
    rateLimit: 100,
  });
  const dataDir = await migratedDataDir('hostaway');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), {
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    HOSTAWAY_API_BASE: fake.url,
    HOSTAWAY_PAGE_SIZE: '10',
  });
  const { url } = server;
  try {
    await onboardedOperator(page, url, smtp, 'hostaway@example.com');
    await page.goto(`${url}/units`);
    await page.getByRole('button', { name: 'Import Listings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Listings from Hostaway' });
    await dialog.getByLabel('Client ID').fill('12345');
    await dialog.getByLabel('Client Secret').fill('wrong-secret');
    await dialog.getByRole('button', { name: 'Get Access Token' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Failed to get access token.');
    await dialog.getByLabel('Client Secret').fill('demo-secret');
    await dialog.getByRole('button', { name: 'Get Access Token' }).click();
    await expect(page.getByText('Credentials saved successfully!')).toBeVisible();
    await expect(dialog.getByText('Connected to Hostaway account 12345')).toBeVisible();
    await expect(dialog.getByLabel('Client Secret')).toHaveCount(0);

    await dialog.getByRole('button', { name: 'Fetch Listings' }).click();
    await expect(page.getByText('Listings fetched successfully.')).toBeVisible();
    const cards = dialog.getByRole('list', { name: 'Listings' }).getByRole('checkbox');
    await expect(cards).toHaveCount(30);
    await expect(cards.nth(6)).toContainText('No address provided');
    await dialog.getByRole('button', { name: 'Save Selected Listings' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please select at least one listing');
    await dialog.getByRole('button', { name: 'Select All' }).click();
    await expect(dialog.getByRole('button', { name: 'Deselect All' })).toBeVisible();
    await expect(dialog.getByText('30 of 30 new listings selected')).toBeVisible();
    await expect(dialog.getByLabel('Assign the new units to garage')).toHaveValue(/.+/);
    await dialog.getByRole('button', { name: 'Save Selected Listings' }).click();
    await expect(page.getByText('Listings imported successfully!')).toBeVisible();
    await expect(dialog.getByText('0 of 0 new listings selected · 30 already imported')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toHaveCount(0);

    await expect(page.getByRole('heading', { name: 'Listing 1030' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Listing 1001' })).toBeVisible();

    await page.getByRole('button', { name: 'Import Listings' }).click();
    await expect(dialog.getByText('Connected to Hostaway account 12345')).toBeVisible();
    await dialog.getByRole('button', { name: 'Fetch Listings' }).click();
    await expect(cards).toHaveCount(30);
    await expect(dialog.getByText('Imported', { exact: true })).toHaveCount(30);
    // aria-disabled: not selectable, yet a tap says why.
    await cards.first().click({ force: true });
    await expect(page.getByText('This listing has already been imported')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Select All' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Hide Imported' }).click();
    await expect(cards).toHaveCount(0);
    await expect(dialog.getByText('Every listing has been imported.')).toBeVisible();

    // Webhook credentials to paste into Hostaway: registered with the fake as Hostaway's API would.
    await dialog.getByText("Keep stays up to date with Hostaway's webhook").click();
    await dialog.getByRole('button', { name: 'Generate webhook credentials' }).click();
    await expect(dialog.getByText('Copy the password now: it is not shown again.')).toBeVisible();
    const values = await dialog.locator('dd').allTextContents();
    fake.accounts[0]!.webhooks = [{ url: values[0]!, login: values[1]!, password: values[2]! }];
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    // The first listing's stay arrives in 2 days (fake-hostaway.ts makeReservations), read by the sync job.
    await page.getByRole('region', { name: 'Listing 1001', exact: true }).getByRole('link', { name: 'View Details' }).click();
    const stays = page.getByRole('region', { name: 'Upcoming stays' });
    await expect(async () => {
      await page.reload();
      await expect(stays.getByRole('listitem')).toHaveCount(1, { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await expect(stays.getByRole('listitem')).toContainText('3 nights · 3 guests (2 adults, 1 child)');
    const stay = fake.accounts[0]!.reservations.find((r) => r.listingMapId === 1001 && r.status === 'new' && !r.isDatesUnspecified)!;
    await fake.changeReservation(stay.id, { numberOfGuests: 5, adults: 4 });
    await expect(async () => {
      await page.reload();
      await expect(stays.getByRole('listitem')).toContainText('5 guests (4 adults, 1 child)', { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
  } catch (err) {
    // The sync and the webhook run in the server's job queue: its log says what happened to them.
    console.log(server.output().split('\n').filter((line) => !line.includes('"msg":"request"')).slice(-60).join('\n'));
    throw err;
  } finally {
    await server.stop();
    await smtp.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
