/**
 * Plans and billing in Chromium against the real server, on a server without Stripe: a new
 * operator's trial (plans, prices, usage, a plan limit that sends them to the plans), then the
 * expired trial and an active plan, each set with the operator command `tenant:plan` while the
 * server is stopped, as the README describes for installs without Stripe.
 */
import { rmSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { freePort, startServer, type RunningServer } from './fixtures/server';
import { startSmtpSink, type SmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir, runScript } from './fixtures/templates';

const email = 'billing-host@example.com';
const password = 'linen-closet-42';
const company = 'Harbor Lofts';

/** Creates and confirms the account through the API, as the sign-up screen and the email link would. */
async function createConfirmedAccount(request: APIRequestContext, url: string, smtp: SmtpSink) {
  const signUp = await request.post(`${url}/api/auth/sign-up/email`, {
    headers: { origin: url },
    data: { email, password, name: email, callbackURL: '/login?verified=1' },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const mail = await smtp.waitFor(email);
  const link = mail.text.match(/https?:\/\/\S+verify-email\S+/)?.[0];
  expect(link, mail.text).toBeTruthy();
  expect((await request.get(link!)).ok()).toBe(true);
}

/** The four setup steps through the API with the page's session: one item, one garage, one unit. */
async function onboard(page: Page, url: string) {
  const steps: [string, unknown][] = [
    ['company', { company_name: company }],
    ['items', { items: [{ name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 }] }],
    ['garage', { name: 'Main Storage', address: '1 Depot Road' }],
    ['units', { units: [{ name: 'Beach House', address: '1 Shore Lane' }] }],
  ];
  for (const [step, data] of steps) {
    const answer = await page.request.post(`${url}/api/onboarding/${step}`, { data });
    expect(answer.ok(), `${step}: ${await answer.text()}`).toBe(true);
  }
}

/** `npm run tenant:plan -- <company> <plan>` on the stopped server's data directory. */
async function setPlan(dataDir: string, plan: string) {
  await runScript('scripts/tenant-plan.ts', dataDir, [company, plan]);
}

function card(page: Page, name: string) {
  return page.getByRole('article', { name });
}

test('subscription: trial, plan limit, expired trial, active plan (embedded database, no Stripe)', async ({ page, request }) => {
  const dataDir = await migratedDataDir('billing');
  let smtp: SmtpSink | undefined;
  let server: RunningServer | undefined;
  try {
    smtp = await startSmtpSink();
    const env = { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` };
    const port = await freePort();
    server = await startServer(port, env);
    const { url } = server;
    const restartWithPlan = async (plan: string) => {
      await server!.stop();
      server = undefined;
      await setPlan(dataDir, plan);
      server = await startServer(port, env);
    };

    await createConfirmedAccount(request, url, smtp);
    await page.goto(`${url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${url}/onboarding/company`);
    await onboard(page, url);

    // --- Trial -------------------------------------------------------------------------------
    await page.goto(`${url}/subscription`);
    await expect(page.getByRole('heading', { name: 'Subscription Plans' })).toBeVisible();
    await expect(page.getByText('Choose the perfect plan for your business')).toBeVisible();
    await expect(page.getByTestId('current-plan-text')).toHaveText('Trial Period - 14 days remaining');
    await expect(page.getByTestId('plan-badge')).toContainText('Trial Period');
    await expect(page.getByTestId('trial-pill')).toContainText('Trial: 14 days left');
    // The pill is part of the page, not floating over it, and can be hidden for the session; the
    // plan badge keeps the way to subscribe.
    await expect(page.getByTestId('trial-pill')).not.toHaveCSS('position', 'fixed');
    await page.getByRole('button', { name: 'Hide the trial reminder' }).click();
    await expect(page.getByTestId('trial-pill')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('plan-badge')).toContainText('Trial Period');
    await expect(page.getByTestId('trial-pill')).toHaveCount(0);
    await expect(page.getByTestId('plan-badge').getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', '/subscription');
    await expect(page.getByTestId('usage-units')).toContainText('1 of 50');
    await expect(page.getByTestId('usage-garages')).toContainText('1 of 5');

    // Yearly prices by default, Enterprise last and priced per unit.
    await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Save up to 11%')).toBeVisible();
    await expect(page.getByRole('article').getByRole('heading')).toHaveText(['Starter', 'Professional', 'Enterprise']);
    await expect(card(page, 'Starter').getByTestId('tier-price')).toHaveText('$310/year');
    await expect(card(page, 'Professional').getByTestId('tier-price')).toHaveText('$850/year');
    await expect(card(page, 'Enterprise').getByTestId('tier-price')).toHaveText('$43/unit/year');
    await expect(card(page, 'Starter')).toContainText('Up to 10 units');
    await expect(card(page, 'Enterprise')).toContainText('Unlimited garages');
    await expect(card(page, 'Enterprise')).toContainText('Up to 50 users');
    await expect(card(page, 'Starter').getByRole('list', { name: 'Features' })).toContainText('AI report assistant (not included)');
    await expect(card(page, 'Professional').getByRole('list', { name: 'Features' })).toContainText('AI photo scanner (included)');
    await expect(card(page, 'Starter').getByRole('list', { name: 'Features' })).toContainText('Listing import (not included)');
    await expect(card(page, 'Enterprise').getByRole('list', { name: 'Features' })).toContainText('Priority support (included)');
    // During the trial no plan is the current one.
    await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(3);

    await page.getByRole('button', { name: 'Monthly' }).click();
    await expect(card(page, 'Starter').getByTestId('tier-price')).toHaveText('$29/month');
    await expect(card(page, 'Professional').getByTestId('tier-price')).toHaveText('$79/month');
    await expect(card(page, 'Enterprise').getByTestId('tier-price')).toHaveText('$4/unit/month');

    // This server has no Stripe: the server's reason is shown.
    await card(page, 'Starter').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Billing is not configured on this server')).toBeVisible();
    await expect(card(page, 'Starter').getByRole('button', { name: 'Subscribe' })).toBeEnabled();

    // Back from the provider's checkout: told once, and the address is cleaned.
    await page.goto(`${url}/subscription?success=true`);
    await expect(page.getByText('Subscription updated successfully!')).toBeVisible();
    await expect(page).toHaveURL(`${url}/subscription`);
    await page.goto(`${url}/subscription?canceled=true`);
    await expect(page.getByText('Subscription update canceled')).toBeVisible();
    await expect(page).toHaveURL(`${url}/subscription`);

    // At the trial plan's garage limit (5), Add Garage tells why and leads to the plans.
    for (let i = 2; i <= 5; i++) {
      const answer = await page.request.post(`${url}/api/garages`, { data: { name: `Storage ${i}`, address: `${i} Depot Road` } });
      expect(answer.ok(), await answer.text()).toBe(true);
    }
    await page.goto(`${url}/garages`);
    await page.getByRole('button', { name: 'Add Garage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Garage' });
    await dialog.getByLabel('Garage Name').fill('Storage 6');
    await dialog.getByLabel('Address').fill('6 Depot Road');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const limitMessage = 'You have reached the maximum number of garages for your plan. Please upgrade to add more.';
    await expect(page.getByText(limitMessage)).toBeVisible();
    await expect(page).toHaveURL(`${url}/subscription`);
    await expect(page.getByText(limitMessage)).toHaveCount(1);
    await expect(page.getByTestId('usage-garages')).toContainText('5 of 5');
    await expect(page.getByTestId('usage-garages')).toContainText('Limit reached');
    // One history entry for the plans: Back returns to the garages.
    await page.goBack();
    await expect(page).toHaveURL(`${url}/garages`);

    // --- Expired trial -----------------------------------------------------------------------
    await restartWithPlan('trial=0');
    await page.goto(`${url}/subscription`);
    await expect(page.getByTestId('current-plan-text')).toHaveText('Your trial has expired. Please subscribe to continue.');
    await expect(page.getByTestId('plan-badge')).toContainText('No Active Plan');
    await expect(page.getByTestId('plan-badge')).toContainText('Subscribe to continue');
    await expect(page.getByTestId('trial-pill')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(3);

    await page.goto(`${url}/units`);
    await expect(page.getByRole('heading', { name: 'Subscription Required' })).toBeVisible();
    await expect(page.getByText('Your trial has expired. Please subscribe to continue managing units.')).toBeVisible();
    await page.getByRole('link', { name: 'View Plans' }).click();
    await expect(page).toHaveURL(`${url}/subscription`);
    await expect(page.getByTestId('current-plan-text')).toHaveText('Your trial has expired. Please subscribe to continue.');

    // --- Active plan -------------------------------------------------------------------------
    await restartWithPlan('Professional');
    await page.goto(`${url}/subscription`);
    await expect(page.getByTestId('current-plan-text')).toHaveText('You are currently on the Professional plan');
    await expect(page.getByTestId('plan-badge')).toContainText('Professional');
    await expect(page.getByTestId('plan-badge')).toContainText('Active Subscription');
    await expect(page.getByTestId('trial-pill')).toHaveCount(0);
    const current = card(page, 'Professional');
    await expect(current.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    await expect(current.getByText('Current Plan', { exact: true }).first()).toBeVisible();
    await expect(card(page, 'Starter').getByRole('button', { name: 'Subscribe' })).toBeEnabled();
    await expect(page.getByTestId('usage-units')).toContainText('1 of 50');
    await page.getByRole('button', { name: 'Manage Subscription' }).click();
    await expect(page.getByText('Billing is not configured on this server')).toBeVisible();

    await page.goto(`${url}/units`);
    await expect(page.getByRole('heading', { name: 'Units' })).toBeVisible();
    await expect(page.getByText('Beach House')).toBeVisible();
    await expect(page.getByText('Subscription Required')).toHaveCount(0);
  } finally {
    await server?.stop();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
