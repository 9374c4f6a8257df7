/**
 * The first journey of a new operator, in Chromium against the real server: sign up, receive
 * the confirmation email over SMTP, follow the link, sign in, complete the four setup steps,
 * see the dashboard's counts; then restart the server on the same data and sign in again.
 * Runs on the embedded database, and on PostgreSQL too when DATABASE_URL is set.
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

const backends = process.env.DATABASE_URL ? (['embedded', 'postgres'] as const) : (['embedded'] as const);

for (const backend of backends) {
  test(`sign up, confirm, onboard, dashboard, restart (${backend} database)`, async ({ page }) => {
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
      const email = `host-${backend}@example.com`;

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

      // Storage
      await page.getByLabel('Storage Name').fill('Main Storage');
      await page.getByLabel('Address').fill('1 Depot Road');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Storage location saved successfully')).toBeVisible();
      await expect(page).toHaveURL(`${url}/onboarding/units`);

      // Properties: three units
      const units = ['Beach House', 'Loft 3B', 'Pine Cabin'];
      for (const [i, name] of units.entries()) {
        if (i > 0) await page.getByRole('button', { name: /add property/i }).click();
        await page.getByLabel('Property Name').nth(i).fill(name);
        await page.getByLabel('Address').nth(i).fill(`${i + 1} Shore Lane`);
      }
      await page.getByRole('button', { name: 'Complete Setup' }).click();
      await expect(page.getByText('Setup completed successfully!')).toBeVisible();
      await expect(page).toHaveURL(`${url}/`);

      // Dashboard: counts equal what was entered; every new property row is critical (quantity 0).
      await expect(page.getByTestId('stat-total-units')).toHaveText('3');
      await expect(page.getByTestId('stat-total-items')).toHaveText('2');
      await expect(page.getByTestId('stat-critical-items')).toHaveText('6');
      await expect(page.getByText('Trial Period').first()).toBeVisible();
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
