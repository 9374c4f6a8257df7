/**
 * The team in Chromium against the real server, its emails through SMTP to a sink
 * (docs/decisions/029-team-and-invitations.md): the owner invites a member from the Users screen;
 * the member opens the emailed link, creates the account there and lands on the company's
 * dashboard, presses plus and minus on a unit, and is not offered Add Item; the owner removes
 * them and the member's open page is returned to sign-in. Then a forgotten password is reset
 * through the emailed link.
 */
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { onboardedOperator, PASSWORD, signInThroughPage } from './fixtures/account';
import { freePort, startServer, type RunningServer } from './fixtures/server';
import { startSmtpSink, type SmtpSink } from './fixtures/smtp-sink';
import { migratedDataDir } from './fixtures/templates';

/** The first link in the newest email to `to` whose subject matches, waiting for it. */
async function linkIn(smtp: SmtpSink, to: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const mail = smtp.messages.filter((m) => m.to.includes(to) && subject.test(m.subject)).at(-1);
      link = mail?.text.match(/https?:\/\/\S+/)?.[0];
      return link;
    })
    .toBeDefined();
  return link!;
}

let smtp: SmtpSink;
let server: RunningServer;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = await migratedDataDir('team');
  smtp = await startSmtpSink();
  server = await startServer(await freePort(), { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the owner invites a member, who joins from the email, changes stock, and is out once removed', async ({ page, browser }) => {
  const { url } = server;
  await onboardedOperator(page, url, smtp, 'owner@example.com');
  // Ten towels in storage, for the member's plus.
  const garages = (await (await page.request.get(`${url}/api/garages`)).json()) as { id: string }[];
  const items = (await (await page.request.get(`${url}/api/items`)).json()) as { id: string }[];
  const stocked = await page.request.put(`${url}/api/garages/${garages[0]!.id}/inventory`, { data: { inventory: [{ item_id: items[0]!.id, quantity: 10 }] } });
  expect(stocked.ok()).toBe(true);

  // The owner invites a member from the Users screen.
  await page.goto(`${url}/users`);
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByText('owner@example.com - Owner')).toBeVisible();
  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await dialog.getByLabel('Email').fill('cleaner@example.com');
  await dialog.getByLabel('Role').selectOption('member');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('Invitation sent to cleaner@example.com')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pending invitations' })).toContainText('cleaner@example.com - Member');

  // The member opens the emailed link in their own browser and creates the account there.
  const link = await linkIn(smtp, 'cleaner@example.com', /invited you to Harbor Homes/);
  expect(link).toMatch(/\/invite#/);
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto(link);
  await expect(member.getByRole('heading', { name: 'Join Harbor Homes' })).toBeVisible();
  await expect(member.getByText('owner@example.com invited you to join')).toBeVisible();
  await expect(member.getByLabel('Email')).toHaveValue('cleaner@example.com');
  await member.getByLabel('Your name').fill('Casey Cleaner');
  await member.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await member.getByLabel('Confirm Password').fill('something-else-1');
  await member.getByRole('button', { name: 'Create Account and Join' }).click();
  await expect(member.getByText('Passwords do not match')).toBeVisible();
  await member.getByLabel('Confirm Password').fill(PASSWORD);
  await member.getByRole('button', { name: 'Create Account and Join' }).click();
  await expect(member).toHaveURL(`${url}/`);
  await expect(member.getByTestId('stat-total-units')).toHaveText('1');

  // Plus and minus on the unit.
  await member.goto(`${url}/units`);
  await member.getByTestId('unit-card').filter({ hasText: 'Beach House' }).getByRole('link', { name: 'View Details' }).click();
  const towel = member.getByTestId('unit-stock-row').filter({ hasText: 'Bath Towel' });
  await member.getByRole('button', { name: 'Increase Bath Towel' }).click();
  await expect(towel).toContainText('9 in garage');
  await member.getByRole('button', { name: 'Decrease Bath Towel' }).click();
  await expect(towel).toContainText('0');
  await expect(member.getByRole('button', { name: 'Edit Unit' })).toHaveCount(0);

  // No Add Item for a member: the reason stands in its place.
  await member.goto(`${url}/items`);
  await expect(member.getByRole('row', { name: /Bath Towel/ })).toBeVisible();
  await expect(member.getByRole('button', { name: 'Add Item' })).toHaveCount(0);
  await expect(member.getByText('Only an admin or owner of your company can do this.')).toBeVisible();

  // The owner sees the member, with their name, and removes them.
  await page.reload();
  const row = page.getByRole('listitem').filter({ hasText: 'cleaner@example.com - Member' });
  await expect(row).toContainText('Casey Cleaner');
  await row.getByRole('button', { name: 'Remove cleaner@example.com' }).click();
  await page.getByRole('dialog', { name: 'Remove User' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('cleaner@example.com removed from the company')).toBeVisible();
  await expect(page.getByText('cleaner@example.com - Member')).toHaveCount(0);

  // The member's open page loses access on its next request: the click's, or a read of its own
  // (the app reads for offline use once its first screen has settled, which may come after the
  // removal). The click is not awaited: the page may be on the sign-in screen already.
  void member
    .getByRole('link', { name: 'Units' })
    .first()
    .click()
    .catch(() => undefined);
  await expect(member).toHaveURL(`${url}/login?ended=1`);
  await expect(member.getByText('your access to the company was removed')).toBeVisible();
  await memberContext.close();
});

test('a forgotten password is reset through the emailed link', async ({ page }) => {
  const { url } = server;
  const email = 'forgetful@example.com';
  const signUp = await page.request.post(`${url}/api/auth/sign-up/email`, { headers: { origin: url }, data: { email, password: PASSWORD, name: email } });
  expect(signUp.ok()).toBe(true);
  await page.goto(await linkIn(smtp, email, /Confirm your email/));

  await page.goto(`${url}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  // The sign-in screen stays up, with its own Email field, until the reset screen has loaded.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText(`If an account exists for ${email}`)).toBeVisible();

  const link = await linkIn(smtp, email, /Reset your Inventory Manager password/);
  expect(link).toMatch(/\/reset-password#/);
  await page.goto(link);
  await page.getByLabel('New Password').fill('fresh-duvet-cover-8');
  await page.getByLabel('Confirm Password').fill('fresh-duvet-cover-8');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page).toHaveURL(`${url}/login`);
  await expect(page.getByText('Your password is changed. Please sign in.')).toBeVisible();

  // The old password no longer works, the new one does; the link cannot be used again.
  await signInThroughPage(page, url, email);
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await signInThroughPage(page, url, email, 'fresh-duvet-cover-8');
  await expect(page).toHaveURL(`${url}/onboarding/company`);
  await page.goto('about:blank');
  await page.goto(link);
  await page.getByLabel('New Password').fill('another-duvet-9');
  await page.getByLabel('Confirm Password').fill('another-duvet-9');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByText('This reset link is not valid or has expired or been used. Ask for a new one.')).toBeVisible();
});
