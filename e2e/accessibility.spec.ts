/**
 * Every screen and dialog, at desktop and phone (390 × 844) sizes, scanned by axe-core with the
 * WCAG 2.1 A and AA rules: the test fails on any serious or critical finding and prints them all.
 * Each screen's page title is checked on the way (docs/product.md "Screens: Route table"). At
 * phone size each screen's touch targets are measured too: the test fails on any under 44 × 44
 * CSS px (WCAG 2.5.5 with its exceptions, e2e/fixtures/targets.ts) and prints them all.
 *
 * The signed-in screens run on the demo data (scripts/seed-demo.ts), in one signed-in page; the
 * setup steps with a new company whose steps are saved through the API one after the other; the
 * sign-in, sign-up, forgot-password and reset-password screens signed out (the last with a
 * secret in its address, as the emailed link has, so that its form shows). A new screen or dialog
 * is one line of `screens`.
 *
 * Each page moves between screens inside the app rather than loading it anew, and a dialog is
 * closed with Escape for the next screen on the same page: loading the whole app for every
 * screen was a third of the walk's time (`show`, `leave`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { PASSWORD, signInThroughPage } from './fixtures/account';
import { seedDemo } from './fixtures/demo';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink } from './fixtures/smtp-sink';
import { smallTargets } from './fixtures/targets';


/** Who looks at the screen: the demo operator, a new company in setup, or nobody signed in. */
type Who = 'demo' | 'new' | 'signed-out';

interface Screen {
  /** What the report calls it. */
  name: string;
  who: Who;
  /** `:unitId` is replaced by a demo property that holds stock. */
  path: string;
  /** The page title, before ' · Inventory Manager'. */
  title: string;
  /** Visible once the screen has its content. */
  ready: (page: Page) => Locator;
  /** Opens a dialog or a part that is hidden at first; resolves to what must then be visible. */
  open?: (page: Page) => Promise<Locator>;
  /** A CSS selector of what `open` shows, scanned alone (the page behind it is a row of its own). */
  scope?: string;
  /** Only at this size (e.g. the phone menu). */
  only?: 'desktop' | 'phone';
  /** For a setup step: saves the step before it, so that this one can be opened. */
  prepare?: (request: APIRequestContext, url: string) => Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
/** A dialog opened by the first button named `button`, scanned alone. */
const dialog = (button: string | RegExp, title: string): Pick<Screen, 'open' | 'scope'> => ({
  open: async (page) => {
    await page.getByRole('button', { name: button }).first().click();
    return page.getByRole('dialog', { name: title });
  },
  scope: '[role="dialog"]',
});
/** The demo's Forecast screen, where the pick lists are opened from. */
const onForecast: Pick<Screen, 'who' | 'path' | 'title' | 'ready'> = {
  who: 'demo',
  path: '/forecast',
  title: 'Forecast',
  ready: (page) => page.getByTestId('forecast-property').first(),
};
const saveStep = (step: string, data: unknown) => async (request: APIRequestContext, url: string) => {
  const res = await request.post(`${url}/api/onboarding/${step}`, { data });
  expect(res.ok(), `${step}: ${await res.text()}`).toBe(true);
};

const screens: Screen[] = [
  { name: 'sign in', who: 'signed-out', path: '/login', title: 'Sign in', ready: heading('Inventory Manager') },
  { name: 'sign up', who: 'signed-out', path: '/signup', title: 'Sign up', ready: heading('Create your account') },
  { name: 'forgot password', who: 'signed-out', path: '/forgot-password', title: 'Forgot password', ready: heading('Reset your password') },
  // The emailed link carries its secret after '#': with one, the screen shows its form.
  { name: 'reset password', who: 'signed-out', path: '/reset-password#a11y-walk', title: 'Reset password', ready: (page) => page.getByLabel('New Password') },
  { name: 'setup: company', who: 'new', path: '/onboarding/company', title: 'Setup', ready: heading('Company details') },
  {
    name: 'setup: items',
    who: 'new',
    path: '/onboarding/items',
    title: 'Setup',
    ready: heading('Inventory items'),
    prepare: saveStep('company', { company_name: 'Harbor Homes' }),
  },
  {
    name: 'setup: storage',
    who: 'new',
    path: '/onboarding/garage',
    title: 'Setup',
    ready: heading('Storage location'),
    prepare: saveStep('items', { items: [{ name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 }] }),
  },
  {
    name: 'setup: properties',
    who: 'new',
    path: '/onboarding/units',
    title: 'Setup',
    ready: heading('Your properties'),
    prepare: saveStep('garage', { name: 'Main Storage', address: '1 Depot Road' }),
  },
  { name: 'dashboard', who: 'demo', path: '/', title: 'Dashboard', ready: (page) => page.getByTestId('unit-alerts') },
  {
    name: 'menu',
    who: 'demo',
    path: '/',
    title: 'Dashboard',
    ready: heading('Dashboard'),
    only: 'phone',
    open: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      return page.getByRole('navigation', { name: 'Main' });
    },
    scope: 'aside',
  },
  { name: 'units', who: 'demo', path: '/units', title: 'Units', ready: (page) => page.getByTestId('unit-card').first() },
  { name: 'units: delete unit', who: 'demo', path: '/units', title: 'Units', ready: heading('Units'), ...dialog(/^Delete /, 'Delete Unit') },
  { name: 'units: import listings', who: 'demo', path: '/units', title: 'Units', ready: heading('Units'), ...dialog('Import Listings', 'Import Listings') },
  { name: 'unit detail', who: 'demo', path: '/unit/:unitId', title: 'Unit detail', ready: (page) => page.getByTestId('unit-stock-row').first() },
  { name: 'unit detail: edit unit', who: 'demo', path: '/unit/:unitId', title: 'Unit detail', ready: heading(/./), ...dialog('Edit Unit', 'Edit Unit') },
  { name: 'unit detail: add manually', who: 'demo', path: '/unit/:unitId', title: 'Unit detail', ready: heading(/./), ...dialog('Add Manually', 'Add Manually') },
  {
    name: 'unit detail: scan items',
    who: 'demo',
    path: '/unit/:unitId',
    title: 'Unit detail',
    ready: heading(/./),
    ...dialog('Scan Items', 'AI-Powered Inventory Scanner'),
  },
  {
    name: 'unit detail: remove a row that holds stock',
    who: 'demo',
    path: '/unit/:unitId',
    title: 'Unit detail',
    ready: heading(/./),
    open: async (page) => {
      const empty = page.getByRole('group', { name: /^Stock of / }).filter({ hasText: /^0$/ });
      await page.getByTestId('unit-stock-row').filter({ hasNot: empty }).first().getByRole('button', { name: /^Remove / }).click();
      return page.getByRole('dialog', { name: /^Remove / });
    },
    scope: '[role="dialog"]',
  },
  { name: 'unit count', who: 'demo', path: '/unit/:unitId/count', title: 'Count', ready: heading(/^Count /) },
  {
    name: 'garage count',
    who: 'demo',
    path: '/garages',
    title: 'Garages',
    ready: (page) => page.getByTestId('garage-card').first(),
    open: async (page) => {
      await page.getByTestId('garage-card').first().getByRole('link', { name: /^Count / }).click();
      await expect(page).toHaveTitle('Count · Inventory Manager');
      return page.getByRole('heading', { level: 1, name: /^Count / });
    },
  },
  { name: 'forecast', ...onForecast },
  {
    name: 'pick list',
    ...onForecast,
    open: async (page) => {
      await page.getByRole('link', { name: /^Pick list: / }).first().click();
      await expect(page).toHaveTitle('Pick list · Inventory Manager');
      return page.getByTestId('pick-list-property').first();
    },
  },
  {
    name: 'pick list: mark as delivered',
    ...onForecast,
    open: async (page) => {
      await page.getByRole('link', { name: /^Pick list: / }).first().click();
      await page.getByRole('button', { name: /^Mark as delivered/ }).first().click();
      return page.getByRole('dialog', { name: /^Deliver to / });
    },
    scope: '[role="dialog"]',
  },
  { name: 'add unit', who: 'demo', path: '/add-unit', title: 'Add Unit', ready: heading('Add Unit') },
  { name: 'garages', who: 'demo', path: '/garages', title: 'Garages', ready: (page) => page.getByTestId('garage-card').first() },
  { name: 'garages: add garage', who: 'demo', path: '/garages', title: 'Garages', ready: heading('Garages'), ...dialog('Add Garage', 'Add Garage') },
  { name: 'garages: delete', who: 'demo', path: '/garages', title: 'Garages', ready: heading('Garages'), ...dialog(/^Delete /, 'Confirm Delete') },
  { name: 'items', who: 'demo', path: '/items', title: 'Items', ready: (page) => page.getByRole('row').nth(1) },
  { name: 'items: add item', who: 'demo', path: '/items', title: 'Items', ready: heading('Items'), ...dialog('Add Item', 'Add Item') },
  { name: 'items: edit item', who: 'demo', path: '/items', title: 'Items', ready: heading('Items'), ...dialog(/^Edit /, 'Edit Item') },
  { name: 'items: delete item', who: 'demo', path: '/items', title: 'Items', ready: heading('Items'), ...dialog(/^Delete /, 'Delete Item') },
  { name: 'reports', who: 'demo', path: '/reports', title: 'Reports', ready: (page) => page.getByTestId('unit-status-chart') },
  {
    name: 'reports: AI chat',
    who: 'demo',
    path: '/reports',
    title: 'Reports',
    ready: heading('Reports'),
    only: 'phone',
    open: async (page) => {
      await page.getByRole('button', { name: 'Show AI Chat' }).click();
      return page.getByRole('button', { name: 'Generate Report' });
    },
  },
  { name: 'users', who: 'demo', path: '/users', title: 'Users', ready: heading('Users') },
  { name: 'api keys', who: 'demo', path: '/api-keys', title: 'API keys', ready: heading('API keys') },
  { name: 'api keys: create', who: 'demo', path: '/api-keys', title: 'API keys', ready: heading('API keys'), ...dialog('Create API Key', 'Create API Key') },
  { name: 'webhooks', who: 'demo', path: '/webhooks', title: 'Webhooks', ready: (page) => page.getByText('No webhook endpoints yet') },
  { name: 'webhooks: add endpoint', who: 'demo', path: '/webhooks', title: 'Webhooks', ready: heading('Webhooks'), ...dialog('Add endpoint', 'Add endpoint') },
  {
    name: 'webhooks: signing secret shown once',
    who: 'demo',
    path: '/webhooks',
    title: 'Webhooks',
    ready: heading('Webhooks'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const form = page.getByRole('dialog', { name: 'Add endpoint' });
      await form.getByLabel('URL').fill('https://example.com/webhooks');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      return page.getByRole('dialog', { name: 'Your endpoint’s signing secret' });
    },
    scope: '[role="dialog"]',
  },
  {
    name: 'webhooks: endpoint and its delivery log',
    who: 'demo',
    path: '/webhooks',
    title: 'Webhooks',
    ready: (page) => page.getByTestId('webhook-endpoint').first(),
    open: async (page) => {
      await page.getByRole('button', { name: 'Delivery log' }).first().click();
      return page.getByText('No deliveries yet');
    },
  },
  { name: 'webhooks: edit endpoint', who: 'demo', path: '/webhooks', title: 'Webhooks', ready: heading('Webhooks'), ...dialog(/^Edit the endpoint /, 'Edit endpoint') },
  { name: 'webhooks: delete endpoint', who: 'demo', path: '/webhooks', title: 'Webhooks', ready: heading('Webhooks'), ...dialog(/^Delete the endpoint /, 'Delete endpoint') },
  { name: 'account', who: 'demo', path: '/account', title: 'Account', ready: (page) => page.getByRole('switch', { name: 'Morning email' }) },
  { name: 'unsubscribe', who: 'signed-out', path: '/unsubscribe', title: 'Unsubscribe', ready: heading('Turn off the morning email') },
  { name: 'subscription', who: 'demo', path: '/subscription', title: 'Subscription', ready: heading('Subscription Plans') },
  { name: 'changes on this phone', who: 'demo', path: '/pending-changes', title: 'Changes on this phone', ready: heading('Changes on this phone') },
];

const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const wcag21aa = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Scans the page, or only what `scope` (a CSS selector) matches, with the WCAG 2.1 A and AA
 * rules; resolves to axe-core's violations. Legacy mode runs axe in the page itself: the default
 * mode opens a new blank page for every scan to merge results across cross-origin frames, which
 * these screens do not have, and that was most of a scan's 2 s.
 */
async function scan(page: Page, scope?: string) {
  const axe = new AxeBuilder({ page }).withTags(wcag21aa).options({ resultTypes: ['violations'] }).setLegacyMode();
  return (scope ? axe.include(scope) : axe).analyze();
}

/**
 * Waits until the page's finite CSS transitions and animations have ended (the phone menu slides
 * in), so that colours are read where they end. Endless ones (a spinner) are not waited for.
 */
async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Pages that show the app as it loaded: nothing is left open on them by a screen's `open`, so a
 * screen on the same path is there already and another path is reached inside the app.
 */
const clean = new WeakSet<Page>();

/**
 * Brings `page` to `address` (a full URL). A page with something left open, one that has not
 * loaded the app yet, or a screen whose `prepare` changed the data behind the app's back
 * (`reload`) loads it anew; otherwise the app goes there itself as a link would (the history
 * entry and the popstate event its router listens to), which saves loading the whole app.
 */
async function show(page: Page, address: string, reload: boolean) {
  const { origin, pathname, hash } = new URL(address);
  const current = new URL(page.url());
  if (reload || !clean.has(page) || current.origin !== origin) {
    await page.goto(address);
  } else if (current.pathname + current.hash !== pathname + hash) {
    await page.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, pathname + hash);
  }
  clean.add(page);
}

/**
 * After a screen's scan: a dialog is closed with Escape (which Dialog promises) and the page is
 * as loaded again; anything else `open` showed (the menu, another screen, a panel) leaves the
 * page to be loaded anew by the next screen.
 */
async function leave(page: Page, screen: Screen) {
  if (!screen.open) return;
  if (screen.scope === '[role="dialog"]') {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog'), `${screen.name}: closed with Escape`).toHaveCount(0);
  } else {
    clean.delete(page);
  }
}

/** One serious or critical axe-core finding, as printed. */
function describeFinding(where: string, violation: { id: string; impact?: string | null; help: string; nodes: { target: unknown; failureSummary?: string }[] }) {
  return violation.nodes.map((node) => `${where}: [${violation.impact}] ${violation.id} (${violation.help}) at ${JSON.stringify(node.target)}\n    ${node.failureSummary?.replace(/\n/g, '\n    ')}`);
}

// The two sizes walk side by side, each with its own server and data (two workers, two cores):
// the walk was the browser suite's longest part.
test.describe.configure({ mode: 'parallel' });

for (const [size, viewport] of Object.entries(sizes)) {
  test(`every screen and dialog passes axe-core (WCAG 2.1 AA) at ${size} size, with its own page title${size === 'phone' ? ' and 44 px touch targets' : ''}`, async ({ browser }) => {
    // 68 scans (both sizes) took 526 s on a shared machine whose health route answered a third of
    // its usual requests/s (docs/performance.md): room for such a day, not a budget.
    test.setTimeout(1_200_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'inv-e2e-a11y-'));
    const smtp = await startSmtpSink();
    try {
      const { email: demoEmail, password: demoPassword } = await seedDemo(dataDir);
      const server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      const { url } = server;
      // Closed before the server stops: a page still connected to it held its shutdown past its
      // 10 s limit.
      const contexts: BrowserContext[] = [];
      const newPage = async () => {
        const context = await browser.newContext({ viewport });
        contexts.push(context);
        return context.newPage();
      };
      try {
        const pages: Record<Who, Page> = { 'signed-out': await newPage(), demo: await newPage(), new: await newPage() };
        await signInThroughPage(pages.demo, url, demoEmail, demoPassword);
        await expect(pages.demo.getByTestId('unit-alerts')).toBeVisible();
        const units = (await (await pages.demo.request.get(`${url}/api/units`)).json()) as { id: string; inventory: { quantity: number }[] }[];
        const unitId = units.find((unit) => unit.inventory.some((row) => row.quantity > 0))!.id;

        const newEmail = 'a11y-setup@example.com';
        const signUp = await pages.new.request.post(`${url}/api/auth/sign-up/email`, {
          headers: { origin: url },
          data: { email: newEmail, password: PASSWORD, name: newEmail },
        });
        expect(signUp.ok(), await signUp.text()).toBe(true);
        await pages.new.goto((await smtp.waitFor(newEmail)).text.match(/https?:\/\/\S+verify-email\S+/)![0]);
        await signInThroughPage(pages.new, url, newEmail);
        await expect(pages.new).toHaveURL(`${url}/onboarding/company`);

        const findings: string[] = [];
        const small: string[] = [];
        const started = Date.now();
        let scanned = 0;
        for (const screen of screens) {
          const page = pages[screen.who];
          await screen.prepare?.(page.request, url);
          if (screen.only && screen.only !== size) continue;
          const where = `${screen.name} (${size})`;
          scanned++;
          await test.step(where, async () => {
            await show(page, `${url}${screen.path.replace(':unitId', unitId)}`, Boolean(screen.prepare));
            await expect(screen.ready(page), where).toBeVisible();
            await expect(page, where).toHaveTitle(`${screen.title} · Inventory Manager`);
            if (screen.open) await expect(await screen.open(page), where).toBeVisible();
            await settled(page);
            const results = await scan(page, screen.scope);
            if (size === 'phone') {
              const tooSmall = (await smallTargets(page, screen.scope)).map((target) => `${where}: under 44 px: ${target}`);
              if (tooSmall.length > 0) console.log(tooSmall.join('\n'));
              small.push(...tooSmall);
            }
            const all = results.violations.map((violation) => `${violation.id} (${violation.impact})`).join(', ') || 'none';
            console.log(`${where}: findings of any impact: ${all}; ${((Date.now() - started) / 1000).toFixed(0)} s`);
            for (const violation of results.violations) {
              if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
              const found = describeFinding(where, violation);
              console.log(found.join('\n'));
              findings.push(...found);
            }
            await leave(page, screen);
          });
        }
        console.log(
          `axe-core (${size}): ${scanned} screens and dialogs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${findings.length} serious or critical findings${
            size === 'phone' ? `, ${small.length} touch targets under 44 px` : ''
          }`,
        );
        expect(findings, findings.join('\n')).toEqual([]);
        expect(small, small.join('\n')).toEqual([]);
      } finally {
        await Promise.all(contexts.map((context) => context.close()));
        await server.stop();
      }
    } finally {
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
