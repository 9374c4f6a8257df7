/**
 * The morning email (docs/product.md "Daily email"): a member's setting, the company's time zone,
 * the signed unsubscribe link, and the sending of one company's emails for one of its days.
 *
 * Once per member and day, even when two workers send the same day at once: before an email is
 * sent, its row of `daily_email_sends` (tenant, user, the company's day) is inserted in a
 * transaction of its own, which commits first; only the worker whose insert made the row sends.
 * When sending fails, the row is deleted again so that a retry sends it. No transaction is held
 * while mail goes out (CONTRIBUTING "Tools on these machines": PGlite is one connection).
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { CompanyTimeZone, DailyEmailSetting, UnsubscribeResult } from '../../../common/contracts/daily-email';
import { TIME_ZONE_MESSAGE } from '../../../common/contracts/daily-email';
import { queryRows, type Db } from '../../db/client';
import { memberships, tenants } from '../../db/schema/auth';
import { dailyEmailSends } from '../../db/schema/forecast';
import { withTenant } from '../../db/tenant-tx';
import type { Mailer } from '../../integrations/mail';
import { AppError } from '../../lib/errors';
import { peopleByIds } from '../auth/people';
import type { TenantIdentity } from '../auth/identity';
import { assertAccess } from '../billing/plans';
import { logCompanyZoneChange } from '../forecast/projections';
import { companyZone, isTimeZone, localDay } from '../stays/local-days';
import { readDigest, readPickLists } from './content';
import { dailyMail } from './mail';
import type { UnsubscribeSigner } from './unsubscribe-token';

/** The refusal of a link whose token was not signed by this server (docs/product.md "Messages"). */
export const INVALID_UNSUBSCRIBE_LINK = 'This unsubscribe link is not valid. Open the whole link from the email, or sign in and turn the morning email off on your Account screen.';

/** What sending needs: the database, the mail adapter, the link signer, the app's origin, the send hour. */
export interface DailyEmailDeps {
  db: Db;
  mailer: Mailer;
  signer: UnsubscribeSigner;
  appUrl: string;
  /** The hour (0–23) of the company's morning the email goes out (DAILY_EMAIL_HOUR). */
  sendHour: number;
}

/** The company's IANA time zone (stays/local-days.ts `companyZone`), in a tenant transaction of its own. */
export const companyZoneOf = (db: Db, tenantId: string): Promise<string> => withTenant(db, tenantId, (tx) => companyZone(tx, tenantId));

/** The signed-in member's setting, with the company's time zone and the hour it is sent at. */
export async function getSetting(db: Db, who: TenantIdentity, sendHour: number): Promise<DailyEmailSetting> {
  return withTenant(db, who.tenantId, async (tx) => {
    const [row] = await queryRows<{ enabled: boolean; time_zone: string }>(
      tx,
      sql`select m.daily_email as enabled, t.time_zone from memberships m join tenants t on t.id = m.tenant_id
          where m.tenant_id = ${who.tenantId} and m.user_id = ${who.userId}`,
    );
    if (!row) throw new AppError('NOT_FOUND', 'Membership not found');
    return { enabled: row.enabled, time_zone: row.time_zone, send_hour: sendHour };
  });
}

/**
 * Turns the signed-in member's email on or off. The change of their membership row drops their
 * identity from every process's cache (decision 023): the next request reads it again, unchanged.
 */
export async function setSetting(db: Db, who: TenantIdentity, enabled: boolean, sendHour: number): Promise<DailyEmailSetting> {
  await withTenant(db, who.tenantId, (tx) =>
    tx
      .update(memberships)
      .set({ dailyEmail: enabled })
      .where(and(eq(memberships.organizationId, who.tenantId), eq(memberships.userId, who.userId))),
  );
  return getSetting(db, who, sendHour);
}

/**
 * Sets the company's time zone to `zone`, stored under its canonical name ('europe/lisbon' is
 * stored as 'Europe/Lisbon'); a change is logged for the forecast's stored projections, in the
 * same transaction (forecast/projections.ts `logCompanyZoneChange`).
 * @throws AppError VALIDATION when the server's time zone database does not know `zone`.
 */
export async function setCompanyTimeZone(db: Db, who: TenantIdentity, zone: string): Promise<CompanyTimeZone> {
  if (!isTimeZone(zone)) throw new AppError('VALIDATION', TIME_ZONE_MESSAGE, [{ path: ['time_zone'], message: TIME_ZONE_MESSAGE }]);
  const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  await withTenant(db, who.tenantId, async (tx) => {
    const changed = await tx
      .update(tenants)
      .set({ timeZone: canonical })
      .where(and(eq(tenants.id, who.tenantId), ne(tenants.timeZone, canonical)))
      .returning({ id: tenants.id });
    if (changed.length > 0) await logCompanyZoneChange(tx, who.tenantId);
  });
  return { time_zone: canonical };
}

/**
 * Turns the email off for the member a link's `token` names, without a session. The company
 * comes from the token, which only this server can sign.
 * @throws AppError VALIDATION when the token is missing, tampered with or signed with another key,
 *   or names no member of that company (any more).
 */
export async function unsubscribe(db: Db, signer: UnsubscribeSigner, token: string | undefined): Promise<UnsubscribeResult> {
  const proven = token ? signer.verify(token) : null;
  const refuse = () => new AppError('VALIDATION', INVALID_UNSUBSCRIBE_LINK, [{ path: ['token'], message: INVALID_UNSUBSCRIBE_LINK }]);
  if (!proven) throw refuse();
  const [row] = await withTenant(db, proven.tenantId, (tx) =>
    queryRows<{ user_id: string; company_name: string }>(
      tx,
      sql`with changed as (
            update memberships set daily_email = false
            where tenant_id = ${proven.tenantId} and user_id = ${proven.userId} returning user_id)
          select c.user_id, t.name as company_name from changed c join tenants t on t.id = ${proven.tenantId}`,
    ),
  );
  const person = row && (await peopleByIds(db, [row.user_id])).get(row.user_id);
  if (!row || !person) throw refuse();
  return { email: person.email, company_name: row.company_name };
}

/** The company's members who get the email, by address. */
async function recipients(db: Db, tenantId: string): Promise<{ user_id: string; email: string }[]> {
  const members = await withTenant(db, tenantId, (tx) =>
    queryRows<{ user_id: string }>(tx, sql`select user_id from memberships where tenant_id = ${tenantId} and daily_email`),
  );
  const people = await peopleByIds(db, members.map((m) => m.user_id));
  return members
    .flatMap((m) => {
      const person = people.get(m.user_id);
      return person ? [{ user_id: m.user_id, email: person.email }] : [];
    })
    .sort((a, b) => a.email.localeCompare(b.email));
}

/** Whether any member of the company gets the email. */
export async function anyRecipient(db: Db, tenantId: string): Promise<boolean> {
  const [row] = await withTenant(db, tenantId, (tx) =>
    queryRows<{ any: boolean }>(tx, sql`select exists (select 1 from memberships where tenant_id = ${tenantId} and daily_email) as any`),
  );
  return row?.any === true;
}

/** The outcome of one company's sending: emails sent now, and members already sent to for that day. */
export interface SendOutcome {
  day: string;
  sent: number;
  alreadySent: number;
  /** Why nothing was sent ('no recipients', 'subscription required'); absent when it was tried. */
  skipped?: string;
}

/**
 * Sends the company's emails for its day at `now` (its time zone's calendar day) to every member
 * who turned the email on and has not had that day's email yet.
 * Nothing is sent while the company is behind the expired-trial gate (docs/product.md "Screens:
 * Expired-trial gate").
 * @throws Error naming the failed addresses when some emails could not be sent (their rows are
 *   deleted first, so a retry sends them); whatever the database throws.
 */
export async function sendDailyEmails(deps: DailyEmailDeps, tenantId: string, now: Date): Promise<SendOutcome> {
  const { db } = deps;
  const zone = await companyZoneOf(db, tenantId);
  const day = localDay(now, zone);
  const members = await recipients(db, tenantId);
  if (members.length === 0) return { day, sent: 0, alreadySent: 0, skipped: 'no recipients' };
  const open = await withTenant(db, tenantId, (tx) =>
    assertAccess(tx, tenantId, now).then(
      () => true,
      (err: unknown) => {
        if (err instanceof AppError && err.code === 'SUBSCRIPTION_REQUIRED') return false;
        throw err;
      },
    ),
  );
  if (!open) return { day, sent: 0, alreadySent: 0, skipped: 'subscription required' };

  const digest = await readDigest(db, tenantId, day);
  const pickLists = await readPickLists(db, tenantId, digest.tomorrow, now);
  const content = { digest, pickLists, appUrl: deps.appUrl };
  let sent = 0;
  let alreadySent = 0;
  const failed: string[] = [];
  for (const member of members) {
    const claimed = await withTenant(db, tenantId, (tx) =>
      tx
        .insert(dailyEmailSends)
        .values({ tenantId, userId: member.user_id, day, sentAt: now })
        .onConflictDoNothing()
        .returning({ userId: dailyEmailSends.userId }),
    );
    if (claimed.length === 0) {
      alreadySent++;
      continue;
    }
    try {
      await deps.mailer.send(dailyMail(content, member.email, deps.signer.sign(tenantId, member.user_id)));
      sent++;
    } catch {
      failed.push(member.email);
      await withTenant(db, tenantId, (tx) =>
        tx
          .delete(dailyEmailSends)
          .where(and(eq(dailyEmailSends.tenantId, tenantId), eq(dailyEmailSends.userId, member.user_id), eq(dailyEmailSends.day, day))),
      );
    }
  }
  if (failed.length > 0) throw new Error(`Daily email not sent to ${failed.join(', ')}`);
  return { day, sent, alreadySent };
}
