/**
 * Calendar links on a property's page (docs/product.md "Stays", "Calendar links"), at phone
 * (390 × 844) and desktop sizes, against iCal feeds served on loopback by the test (the server
 * runs with CALENDAR_ALLOW_LOOPBACK=true): 'No calendar link'; an Airbnb link with two bookings
 * is added and read at once, its toast, the link, 'Upcoming stays' and the forecast line show
 * them without a reload; a PMS link listing one of the same bookings with its guests adds no
 * stay (one booking, one stay) and the shared stay says it is also on Airbnb; the Forecast,
 * opened from the menu, lists the property (no towels there, minimum 4: below the minimum at
 * the first check-in); removing a link asks first and takes it off the page.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { onboardedOperator } from './fixtures/account';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink, type SmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';

const sizes = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;
type Size = keyof typeof sizes;

const DAY = 86_400_000;
/** The calendar day `days` after today (UTC, the new company's time zone) as YYYY-MM-DD. */
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
/** 'Wed, Nov 25', as the page writes a calendar day (web/lib/format.ts formatCalendarDay). */
const shown = (ymd: string) => new Date(`${ymd}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const icalDate = (ymd: string) => ymd.replaceAll('-', '');

/** Two bookings ahead of today, both arriving within the forecast's 7 days. */
const first = { arrival: dayFromToday(1), departure: dayFromToday(3) }; // 2 nights, Airbnb only
const shared = { arrival: dayFromToday(4), departure: dayFromToday(7) }; // 3 nights, Airbnb and the PMS

function event(uid: string, stay: { arrival: string; departure: string }, summary: string, description?: string): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${icalDate(dayFromToday(0))}T080000Z`,
    `DTSTART;VALUE=DATE:${icalDate(stay.arrival)}`,
    `DTEND;VALUE=DATE:${icalDate(stay.departure)}`,
    `SUMMARY:${summary}`,
    ...(description ? [`DESCRIPTION:${description}`] : []),
    'END:VEVENT',
  ];
}

const calendar = (prodid: string, events: string[][]) =>
  [`BEGIN:VCALENDAR`, 'VERSION:2.0', `PRODID:${prodid}`, 'CALSCALE:GREGORIAN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');

/** Airbnb's export: two bookings ('Reserved'). */
const airbnbFeed = calendar('-//Airbnb Inc//Hosting Calendar 1.0//EN', [
  event('a1b2c3d4-first@airbnb.com', first, 'Reserved'),
  event('e5f6a7b8-shared@airbnb.com', shared, 'Reserved'),
]);
/** A PMS's export: the shared booking only, with its guest and party. */
const pmsFeed = calendar('-//Smoobu//EN', [event('smoobu-90001', shared, 'Maria Lopez', 'Guests: 4')]);

/** Serves both feeds on 127.0.0.1 at a free port: /airbnb/{any}.ics and /smoobu/{any}.ics. */
async function startFeeds(): Promise<{ url: string; server: Server; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(path);
    const body = path.startsWith('/airbnb/') ? airbnbFeed : path.startsWith('/smoobu/') ? pmsFeed : null;
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

/** Sets a marker on the page's window: still there later means no page load happened in between. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { calendarSpecMarker?: string }).calendarSpecMarker = 'same document';
  });
}
async function expectSameDocument(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { calendarSpecMarker?: string }).calendarSpecMarker)).toBe('same document');
}

/** Adds `link` through the dialog; answers the POST's status. */
async function addLink(page: Page, link: string): Promise<number> {
  await page.getByRole('region', { name: 'Calendar links' }).getByRole('button', { name: 'Add calendar link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add calendar link' });
  await dialog.getByLabel('Calendar link (iCal)').fill(link);
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/units\/[^/]+\/calendar\/links$/.test(new URL(r.url()).pathname));
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  const status = (await posted).status();
  await expect(dialog).toHaveCount(0);
  return status;
}

/** One operator's journey, on a new account, at `size`. */
async function journey(browser: Browser, url: string, smtp: SmtpSink, feeds: string, size: Size): Promise<void> {
  const context = await browser.newContext(sizes[size]);
  const page = await context.newPage();
  const airbnb = `${feeds}/airbnb/${size}-listing.ics`;
  const pms = `${feeds}/smoobu/${size}-property.ics`;
  try {
    await onboardedOperator(page, url, smtp, `calendar-${size}@example.com`);
    if (size === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Units' }).click();
    } else {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Units' }).click();
    }
    await page.getByRole('region', { name: 'Beach House', exact: true }).getByRole('link', { name: 'View Details' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Beach House' })).toBeVisible();

    const links = page.getByRole('region', { name: 'Calendar links' });
    const stays = page.getByRole('region', { name: 'Upcoming stays' });
    const forecastLine = page.getByTestId('unit-forecast');
    await expect(links.getByText('No calendar link')).toBeVisible();
    await expect(stays.getByText('No stays in the next 14 days')).toBeVisible();
    await expect(forecastLine).toContainText('Next 7 days: no stays');
    await markDocument(page);

    // 1–2. The Airbnb link: read at once, its two bookings everywhere on the page, no reload.
    expect(await addLink(page, airbnb)).toBe(201);
    await expect(page.getByRole('status').filter({ hasText: 'Calendar link added: 2 upcoming stays found' })).toBeVisible();
    const airbnbRow = links.getByRole('listitem').filter({ hasText: airbnb });
    await expect(airbnbRow).toBeVisible();
    await expect(airbnbRow).toContainText('· 2 upcoming stays');
    await expect(links.getByText('No calendar link')).toHaveCount(0);
    const stayItems = stays.getByRole('listitem');
    await expect(stayItems).toHaveCount(2);
    await expect(stayItems.nth(0)).toContainText(`${shown(first.arrival)} – ${shown(first.departure)} · 2 nights`);
    await expect(stayItems.nth(0)).toContainText('Airbnb');
    await expect(stayItems.nth(1)).toContainText(`${shown(shared.arrival)} – ${shown(shared.departure)} · 3 nights`);
    await expect(stayItems.nth(1)).toContainText('Airbnb');
    await expect(forecastLine).toContainText('Next 7 days: 2 stays');
    await expectSameDocument(page);

    // 3. The PMS link lists one of the same bookings: still two stays, the shared one counted
    // from the PMS (it gives the guests) and also on Airbnb.
    expect(await addLink(page, pms)).toBe(201);
    await expect(page.getByRole('status').filter({ hasText: 'Calendar link added: 1 upcoming stay found' })).toBeVisible();
    const pmsRow = links.getByRole('listitem').filter({ hasText: pms });
    await expect(pmsRow).toContainText('· 1 upcoming stay');
    await expect(links.getByRole('listitem')).toHaveCount(2);
    await expect(stayItems.nth(1)).toContainText(`${shown(shared.arrival)} – ${shown(shared.departure)} · 3 nights · 4 guests`);
    await expect(stayItems.nth(1)).toContainText('· also on Airbnb');
    await expect(stayItems).toHaveCount(2);
    await expect(stayItems.nth(0)).not.toContainText('also on');
    await expect(forecastLine).toContainText('Next 7 days: 2 stays');
    await expectSameDocument(page);

    // 4. The Forecast, from the menu: no towels at the property and a minimum of 4, so the first
    // check-in starts below the minimum.
    if (size === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Forecast' }).click();
    await expect(page).toHaveTitle('Forecast · Inventory Manager');
    const card = page.getByRole('region', { name: 'Beach House' });
    await expect(card).toContainText(`Check-in ${shown(first.arrival)}`);
    // What to bring is one line; a tap on it opens each item's why.
    await card.getByTestId('forecast-bring').click();
    await expect(card.getByRole('listitem').filter({ hasText: 'Bath Towel' })).toContainText(`Below minimum at the check-in on ${shown(first.arrival)}`);
    await expect(card).toContainText('Bring 4');
    await expectSameDocument(page);

    // 5. Back on the property (the card's link), a link removed through its confirm dialog: the
    // phone removes the PMS link (the shared booking counts from Airbnb again), the desktop the
    // Airbnb link (its booking of its own goes).
    await card.getByRole('link', { name: 'Beach House' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Beach House' })).toBeVisible();
    const removed = size === 'phone' ? pms : airbnb;
    await links.getByRole('button', { name: `Remove the calendar link ${removed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the calendar link?' });
    await expect(confirm).toContainText(removed);
    await expect(confirm).toContainText('Stays from this link that have not ended are removed from the unit; past stays are kept.');
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Calendar link removed' })).toBeVisible();
    await expect(confirm).toHaveCount(0);
    await expect(links.getByRole('listitem').filter({ hasText: removed })).toHaveCount(0);
    await expect(links.getByRole('listitem')).toHaveCount(1);
    if (size === 'phone') {
      await expect(stayItems).toHaveCount(2);
      await expect(stays).not.toContainText('also on');
      await expect(stayItems.nth(1)).toContainText('Airbnb');
      await expect(stayItems.nth(1)).not.toContainText('4 guests');
      await expect(forecastLine).toContainText('Next 7 days: 2 stays');
    } else {
      await expect(stayItems).toHaveCount(1);
      await expect(stayItems.nth(0)).toContainText(`${shown(shared.arrival)} – ${shown(shared.departure)} · 3 nights · 4 guests`);
      await expect(stays).not.toContainText('also on');
      await expect(forecastLine).toContainText('Next 7 days: 1 stay');
    }
    await expectSameDocument(page);
  } finally {
    await context.close();
  }
}

test('calendar links: add two, one booking one stay, the forecast, and remove one (phone and desktop)', async ({ browser }) => {
  // Two sizes in one test: 1.6 min in CI on a quiet machine, 2.0 min when it ran beside both
  // accessibility walks and timed out at 120 s.
  test.setTimeout(300_000);
  const feeds = await startFeeds();
  const dataDir = await migratedDataDir('calendar');
  const smtp = await startSmtpSink();
  const server = await startServer(await freePort(), {
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    // The feeds are on loopback, which the server refuses unless told otherwise (tests only).
    CALENDAR_ALLOW_LOOPBACK: 'true',
    CALENDAR_TIMEOUT_MS: '5000',
  });
  try {
    await test.step('phone', () => journey(browser, server.url, smtp, feeds.url, 'phone'));
    await test.step('desktop', () => journey(browser, server.url, smtp, feeds.url, 'desktop'));
    // Each link was read by the server itself when it was added.
    expect(feeds.requests.filter((p) => p.startsWith('/airbnb/')).length).toBeGreaterThanOrEqual(2);
    expect(feeds.requests.filter((p) => p.startsWith('/smoobu/')).length).toBeGreaterThanOrEqual(2);
  } catch (err) {
    console.log(server.output().split('\n').filter((line) => !line.includes('"msg":"request"')).slice(-40).join('\n'));
    throw err;
  } finally {
    await server.stop();
    await smtp.close();
    await new Promise((resolve) => feeds.server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
