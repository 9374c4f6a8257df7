/**
 * The first journey of a new operator, in Chromium against the real server: sign up, receive
 * the confirmation email over SMTP, follow the link, sign in, complete the four setup steps
 * (reopening a finished one, with starting quantities in storage and the properties filled to
 * their minimum from it), see the dashboard's counts; then restart the server on the same data
 * and sign in again. Runs at desktop and phone size (390 x 844) on the embedded database; when
 * DATABASE_URL is set, the phone walk runs on the embedded database and the desktop walk on
 * PostgreSQL (the screens do not depend on the database, and each walk takes a minute of the
 * browser suite's two workers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { freePort, startServer } from './fixtures/server';
import { startSmtpSink, type SmtpSink } from './fixtures/smtp-sink';

const password = 'linen-closet-42';

async function signIn(page: Page, url: string, email: string) {
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function freshPostgresUrl(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `inv_e2e_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const viewports = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: { width: 390, height: 844 } },
] as const;

const walks = viewports.map((viewport) => ({
  viewport,
  backend: process.env.DATABASE_URL && viewport.name === 'desktop' ? ('postgres' as const) : ('embedded' as const),
}));

for (const { backend, viewport } of walks) {
  test(`sign up, confirm, onboard, dashboard, restart (${backend} database, ${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport.size);
    const dataDir = mkdtempSync(join(tmpdir(), 'inv-e2e-'));
    let smtp: SmtpSink | undefined;
    let pgDb: Awaited<ReturnType<typeof freshPostgresUrl>> | undefined;
    try {
      smtp = await startSmtpSink();
      const env: Record<string, string> = { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` };
      if (backend === 'postgres') {
        pgDb = await freshPostgresUrl(process.env.DATABASE_URL!);
        Object.assign(env, { DATABASE_URL: pgDb.url, APP_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456' });
      }
      const port = await freePort();
      let server = await startServer(port, env);
      const { url } = server;
      const email = `host-${backend}-${viewport.name}@example.com`;

      // Signed out, any page leads to sign-in.
      await page.goto(`${url}/units`);
      await expect(page).toHaveURL(`${url}/login`);
      await expect(page.getByRole('heading', { name: 'Inventory Manager' })).toBeVisible();

      // Sign up with the spec's rules.
      await page.getByRole('link', { name: /sign up/i }).click();
      await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('12345');
      await page.getByLabel('Confirm Password').fill('12345');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm Password').fill(`${password}x`);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Passwords do not match')).toBeVisible();
      await page.getByLabel('Confirm Password').fill(password);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Account created successfully! Please sign in.')).toBeVisible();
      await expect(page).toHaveURL(`${url}/login`);

      // Signing in before confirming is refused with a clear message.
      await signIn(page, url, email);
      await expect(page.getByText(/confirm your email/i).first()).toBeVisible();

      // The confirmation email arrives over SMTP; its link confirms and leads to sign-in.
      const mail = await smtp.waitFor(email);
      const link = mail.text.match(/https?:\/\/\S+verify-email\S+/)?.[0];
      expect(link, mail.text).toBeTruthy();
      await page.goto(link!);
      await expect(page).toHaveURL(/\/login/);

      await signIn(page, url, email);
      await expect(page).toHaveURL(`${url}/onboarding/company`);
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

      // Company
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Please enter a company name')).toBeVisible();
      await page.getByLabel('Company Name').fill('Seaside Stays');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Company created successfully')).toBeVisible();
      await expect(page).toHaveURL(`${url}/onboarding/items`);

      // Items: two supplies
      const items = [
        { name: 'Bath Towel', category: 'Linen', threshold: '4', cost: '6.50' },
        { name: 'Coffee Pods', category: 'Kitchen', threshold: '10', cost: '0.45' },
      ];
      for (const [i, item] of items.entries()) {
        if (i > 0) await page.getByRole('button', { name: /add item/i }).click();
        await page.getByLabel('Item Name').nth(i).fill(item.name);
        await page.getByLabel('Category').nth(i).fill(item.category);
        await page.getByLabel('Minimum Threshold').nth(i).fill(item.threshold);
        await page.getByLabel('Count Cost').nth(i).fill(item.cost);
      }
      // A reload keeps what was typed (local persistence of the wizard).
      await page.reload();
      await expect(page.getByLabel('Item Name').nth(1)).toHaveValue('Coffee Pods');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Items saved successfully')).toBeVisible();
      await expect(page).toHaveURL(`${url}/onboarding/garage`);

      // Reopened on a device that kept nothing, the items step shows what was saved and edits it.
      await page.evaluate(() => localStorage.clear());
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page).toHaveURL(`${url}/onboarding/items`);
      await expect(page.getByLabel('Item Name')).toHaveCount(2);
      await expect(page.getByLabel('Item Name').nth(0)).toHaveValue('Bath Towel');
      await expect(page.getByLabel('Minimum Threshold').nth(1)).toHaveValue('10');
      await page.getByLabel('Category').nth(0).fill('Bathroom linen');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Items saved successfully').first()).toBeVisible();
      await expect(page).toHaveURL(`${url}/onboarding/garage`);
      const saved = (await (await page.request.get(`${url}/api/onboarding/setup`)).json()) as { items: { name: string; category: string }[] };
      expect(saved.items.map((i) => `${i.name}: ${i.category}`)).toEqual(['Bath Towel: Bathroom linen', 'Coffee Pods: Kitchen']);

      // Storage, with what it holds today: enough towels for every property, pods 5 short.
      await page.getByLabel('Storage Name').fill('Main Storage');
      await page.getByLabel('Address').fill('1 Depot Road');
      const towels = page.getByLabel('Bath Towel');
      await expect(towels).toHaveAttribute('inputmode', 'numeric');
      await expect(towels).toHaveValue('');
      await towels.fill('20');
      await page.getByLabel('Coffee Pods').fill('25');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Storage location saved successfully')).toBeVisible();
      await expect(page).toHaveURL(`${url}/onboarding/units`);

      // Before setup is complete, the other screens lead to setup.
      await page.goto(`${url}/units`);
      await expect(page).toHaveURL(`${url}/onboarding/units`);
      await page.goto(`${url}/`);
      await expect(page).toHaveURL(`${url}/onboarding/units`);

      // Properties: three units
      const units = ['Beach House', 'Loft 3B', 'Pine Cabin'];
      for (const [i, name] of units.entries()) {
        if (i > 0) await page.getByRole('button', { name: /add property/i }).click();
        await page.getByLabel('Property Name').nth(i).fill(name);
        await page.getByLabel('Address').nth(i).fill(`${i + 1} Shore Lane`);
      }
      const fill = page.getByRole('checkbox', { name: 'Fill all properties to their minimum from storage' });
      await expect(fill).toBeChecked();
      await expect(page.getByText('Bath Towel: 12 needed, 20 in storage')).toBeVisible();
      await expect(page.getByText('Coffee Pods: 30 needed, 25 in storage — 5 short')).toBeVisible();
      await page.getByRole('button', { name: 'Complete Setup' }).click();
      await expect(page.getByText('Setup completed successfully!')).toBeVisible();
      await expect(
        page.getByText('Storage could not cover 5 Coffee Pods. Add them to storage, then use Restock to minimum on each property.'),
      ).toBeVisible();
      await expect(page).toHaveURL(`${url}/`);

      // Dashboard: counts equal what was entered; every property holds its minimum (low, the pods
      // of one property short of it), none is empty: nothing is critical.
      await expect(page.getByTestId('stat-total-units')).toHaveText('3');
      await expect(page.getByTestId('stat-total-items')).toHaveText('2');
      await expect(page.getByTestId('stat-critical-items')).toHaveText('0');
      await expect(page.getByTestId('stat-low-stock-items')).toHaveText('6');
      // Storage kept what was not needed: 20 - 12 = 8 towels, no pods.
      const garages = (await (await page.request.get(`${url}/api/garages`)).json()) as { inventory: { item_name: string; quantity: number }[] }[];
      expect(garages[0]!.inventory.map((r) => `${r.item_name}: ${r.quantity}`).sort()).toEqual(['Bath Towel: 8', 'Coffee Pods: 0']);
      // The sidebar with the trial card is behind the menu on a phone; the trial pill shows on both.
      if (viewport.name === 'desktop') await expect(page.getByText('Trial Period').first()).toBeVisible();
      await expect(page.getByText('Trial: 14 days left')).toBeVisible();

      // Restart on the same data, sign in again, same figures.
      await server.stop();
      server = await startServer(port, env);
      await page.goto(`${url}/signout`);
      await expect(page).toHaveURL(`${url}/login`);
      await signIn(page, url, email);
      await expect(page).toHaveURL(`${url}/`);
      await expect(page.getByTestId('stat-total-units')).toHaveText('3');
      await expect(page.getByTestId('stat-total-items')).toHaveText('2');
      await server.stop();
    } finally {
      await smtp?.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
