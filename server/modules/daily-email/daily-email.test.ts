/**
 * The morning email on both databases (docs/product.md "Daily email"): the member's setting, the
 * company's time zone, one email per member and day even when two workers send at once, the
 * content on a known fixture (arrivals, the garage's pick list, critical rows), the company's own day, the unsubscribe link without a session, and
 * the job that sends it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_ZONE_MESSAGE } from '../../../common/contracts/daily-email';
import { pickListAnswer, type PickListLine } from '../../../common/contracts/forecast';
import { itemNames, lineShortfalls } from '../../../common/pick-list';
import { queryRows } from '../../db/client';
import type { MailMessage } from '../../integrations/mail';
import { setTrialEnd } from '../billing/operator';
import { startJobQueue } from '../../jobs/queue';
import { api, APP_URL, backends, createTestApp, TEST_APP_SECRET, TEST_PASSWORD, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { garagePickList } from '../forecast/service';
import { localDay } from '../stays/local-days';
import { nextSendDay, queuedDailyEmailJobs, sendInstant } from './jobs';
import { INVALID_UNSUBSCRIBE_LINK, sendDailyEmails, type DailyEmailDeps } from './service';
import { unsubscribeSigner } from './unsubscribe-token';

const jsonHeaders = { 'content-type': 'application/json', origin: APP_URL };
/** 12:00 UTC: already Thu Nov 26 in Kiritimati (UTC+14), still Wed Nov 25 in Pago Pago (UTC−11). */
const NOON = new Date('2026-11-25T12:00:00Z');

describe.each(backends)('the daily email on %s', (backend) => {
  let t: TestApp;
  let a: StockTenant;
  let b: StockTenant;
  let memberCookie: string;
  const sent: MailMessage[] = [];
  let deps: DailyEmailDeps;

  const setting = (cookie: string) => api(t, cookie, 'GET', '/api/me/daily-email');
  const optIn = (cookie: string, enabled: boolean) => api(t, cookie, 'PUT', '/api/me/daily-email', { enabled });
  const unsubscribeWith = (token: string) => t.app.inject({ method: 'POST', url: '/api/daily-email/unsubscribe', headers: jsonHeaders, payload: { token } });
  const tokenOf = (mail: MailMessage) => mail.text.match(/\/unsubscribe#(\S+)/)![1]!;
  const sends = async () =>
    queryRows<{ tenant_id: string; email: string; day: string }>(
      t.database.db,
      sql`select s.tenant_id, u.email, s.day::text as day from daily_email_sends s join users u on u.id = s.user_id order by u.email, s.day`,
    );

  beforeAll(async () => {
    // Identities kept in memory, as `npm start` does: a change of the member's own row drops theirs.
    t = await createTestApp(backend, { identities: true });
    a = await stockTenant(t, 'owner-a@example.com');
    b = await stockTenant(t, 'owner-b@example.com');
    deps = { db: t.database.db, mailer: { send: async (m) => void sent.push(m) }, signer: unsubscribeSigner(TEST_APP_SECRET), appUrl: APP_URL, sendHour: 7 };

    // A member of company A, who never turns the email on.
    expect((await api(t, a.cookie, 'POST', '/api/invitations', { email: 'member-a@example.com', role: 'member' })).statusCode).toBe(201);
    const invitation = t.mail.filter((m) => m.to === 'member-a@example.com').at(-1)!;
    const token = invitation.text.match(/\/invite#([A-Za-z0-9_-]{43})/)![1];
    const join = await t.app.inject({ method: 'POST', url: '/api/invitations/join', headers: jsonHeaders, payload: { token, name: 'Mia', password: TEST_PASSWORD } });
    expect(join.statusCode).toBe(200);
    memberCookie = join.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

    // Company A's stock: Beach House out of towels, Harbor Loft stocked, the garage's Coffee Pods all taken to Beach House.
    const towel = a.itemIds['Bath Towel']!;
    const pods = a.itemIds['Coffee Pods']!;
    const garage = await api(t, a.cookie, 'PUT', `/api/garages/${a.garageId}/inventory`, {
      inventory: [
        { item_id: towel, quantity: 20 },
        { item_id: pods, quantity: 3 },
      ],
    });
    expect(garage.statusCode).toBe(200);
    expect((await api(t, a.cookie, 'POST', `/api/units/${a.unitId}/inventory/${pods}/transfer`, { quantity: 3 })).statusCode).toBe(200);
    const loft = await api(t, a.cookie, 'POST', '/api/units', {
      name: 'Harbor Loft',
      address: '9 Quay <Street>',
      garage_id: a.garageId,
      inventory: [
        { item_id: towel, quantity: 6 },
        { item_id: pods, quantity: 12 },
      ],
    });
    expect(loft.statusCode).toBe(201);
    const loftId = (loft.json() as { id: string }).id;
    await t.database.db.execute(sql`update units set name = 'Beach House & Spa' where id = ${a.unitId}`);

    // Company A's day at NOON is 2026-11-26 (Kiritimati): tomorrow is Fri Nov 27.
    await t.database.db.execute(sql`
      insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, guests, status) values
        (${a.tenantId}, 'demo', 'r1', ${a.unitId}, '2026-11-27', '2026-11-30', 3, 4, 'confirmed'),
        (${a.tenantId}, 'hostaway', 'r2', ${loftId}, '2026-11-27', '2026-11-29', null, null, 'new'),
        (${a.tenantId}, 'hostaway', 'r3', ${loftId}, '2026-11-27', '2026-11-28', 1, 2, 'cancelled'),
        (${a.tenantId}, 'demo', 'r4', ${a.unitId}, '2026-11-28', '2026-11-30', 2, 2, 'confirmed'),
        (${b.tenantId}, 'demo', 'r5', ${b.unitId}, '2026-11-26', '2026-11-27', 1, 1, 'confirmed')`);
  });
  afterAll(() => t.close());

  it('is off until the member turns it on, and says in which time zone it goes out', async () => {
    expect((await setting(a.cookie)).json()).toEqual({ enabled: false, time_zone: 'UTC', send_hour: 7 });
    const on = await optIn(a.cookie, true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ enabled: true, time_zone: 'UTC', send_hour: 7 });
    // The member's own setting only: the company's other member and company B are unchanged.
    expect((await setting(memberCookie)).json()).toMatchObject({ enabled: false });
    expect((await setting(b.cookie)).json()).toMatchObject({ enabled: false });
    // The change of the membership row leaves the member signed in.
    expect((await api(t, a.cookie, 'GET', '/api/me')).json()).toMatchObject({ role: 'owner', tenant: { id: a.tenantId } });
    const bad = await api(t, a.cookie, 'PUT', '/api/me/daily-email', { enabled: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Enabled must be true or false');
  });

  it("sets the company's time zone for admins only, validated and stored by its canonical name", async () => {
    const wrong = await api(t, a.cookie, 'PUT', '/api/company/time-zone', { time_zone: 'Mars/Olympus_Mons' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'VALIDATION', message: TIME_ZONE_MESSAGE, issues: [{ path: ['time_zone'], message: TIME_ZONE_MESSAGE }] });
    expect((await api(t, a.cookie, 'PUT', '/api/company/time-zone', { time_zone: '' })).json().error.message).toContain(TIME_ZONE_MESSAGE);
    expect((await api(t, memberCookie, 'PUT', '/api/company/time-zone', { time_zone: 'Europe/Lisbon' })).statusCode).toBe(403);

    const set = await api(t, a.cookie, 'PUT', '/api/company/time-zone', { time_zone: 'pacific/kiritimati' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ time_zone: 'Pacific/Kiritimati' });
    expect((await setting(memberCookie)).json()).toMatchObject({ time_zone: 'Pacific/Kiritimati' });
    // Company A's admin changed company A only.
    expect((await setting(b.cookie)).json()).toMatchObject({ time_zone: 'UTC' });
    expect((await api(t, b.cookie, 'PUT', '/api/company/time-zone', { time_zone: 'Pacific/Pago_Pago' })).statusCode).toBe(200);
    expect((await setting(a.cookie)).json()).toMatchObject({ time_zone: 'Pacific/Kiritimati' });
  });

  it("sends tomorrow's arrivals and what is critical now, to the members who turned it on, once per day even from two workers at once", async () => {
    sent.length = 0;
    const [first, second] = await Promise.all([sendDailyEmails(deps, a.tenantId, NOON), sendDailyEmails(deps, a.tenantId, NOON)]);
    expect(sent.map((m) => m.to)).toEqual(['owner-a@example.com']);
    expect(first.sent + second.sent).toBe(1);
    expect(first.alreadySent + second.alreadySent).toBe(1);
    expect(await sendDailyEmails(deps, a.tenantId, new Date('2026-11-25T18:00:00Z'))).toEqual({ day: '2026-11-26', sent: 0, alreadySent: 1 });
    expect(sent).toHaveLength(1);

    const mail = sent[0]!;
    expect(mail.subject).toBe('Acme Rentals — tomorrow, Fri Nov 27: 2 arrivals');
    expect(mail.text).toContain(
      [
        "Tomorrow's arrivals (2)",
        '- Beach House & Spa: 4 guests, 3 nights',
        // No guests or nights from the source: the default typical guests, the dates' difference.
        '- Harbor Loft: 2 guests, 2 nights',
      ].join('\n'),
    );
    expect(mail.text).toContain(
      [
        'Critical now (2)',
        '- Bath Towel at Beach House & Spa: 0',
        '- Coffee Pods at Main Storage (garage): 0',
      ].join('\n'),
    );
    // The garage's pick list for tomorrow, as the forecast makes it, property by property.
    // Parsed with the contract's schema: the server sends the answer as JSON text it assembled, unvalidated.
    const pickList = pickListAnswer.parse(JSON.parse(await garagePickList(t.database.db, a.tenantId, a.garageId, '2026-11-27', NOON)));
    expect(pickList.properties.map((p) => p.unit_name)).toEqual(['Beach House & Spa', 'Harbor Loft']);
    const beach = pickList.properties[0]!;
    const nameOf = itemNames(pickList);
    expect(beach.lines.find((l) => nameOf(l.item_id) === 'Bath Towel')!.bring).toBeGreaterThan(0);
    const shortOf = (itemId: string) => lineShortfalls(pickList)(beach.unit_id, itemId);
    const lineText = (l: PickListLine) => `    ${nameOf(l.item_id)}: bring ${l.bring}${shortOf(l.item_id) > 0 ? ` (${shortOf(l.item_id)} short in the garage)` : ''}`;
    expect(mail.text).toContain(['Pick list: Main Storage', '- Beach House & Spa:', ...beach.lines.map(lineText)].join('\n'));
    expect(mail.text).toContain(`Open Inventory Manager: ${APP_URL}/`);
    expect(mail.text).toMatch(new RegExp(`Turn it off: ${APP_URL}/unsubscribe#\\S+`));
    // Every name escaped in the HTML part.
    expect(mail.html).toContain('<strong>Beach House &amp; Spa</strong>: 4 guests, 3 nights');
    expect(mail.html).not.toContain('Beach House & Spa');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${APP_URL}/api/daily-email/unsubscribe?token=${encodeURIComponent(tokenOf(mail))}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it("counts each company's day in its own time zone: Kiritimati and Pago Pago at the same instant", async () => {
    expect((await optIn(b.cookie, true)).statusCode).toBe(200);
    sent.length = 0;
    expect(await sendDailyEmails(deps, b.tenantId, NOON)).toEqual({ day: '2026-11-25', sent: 1, alreadySent: 0 });
    expect(sent[0]!.subject).toBe('Acme Rentals — tomorrow, Thu Nov 26: 1 arrival');
    expect(sent[0]!.text).toContain("Tomorrow's arrivals (1)\n- Beach House: 1 guest, 1 night");
    expect((await sends()).map((s) => [s.email, s.day])).toEqual([
      ['owner-a@example.com', '2026-11-26'],
      ['owner-b@example.com', '2026-11-25'],
    ]);
  });

  it('gives the row back when sending fails, so that the retry sends it', async () => {
    let failures = 1;
    const flaky: DailyEmailDeps = {
      ...deps,
      mailer: {
        send: async (m) => {
          if (failures-- > 0) throw new Error('SMTP refused');
          sent.push(m);
        },
      },
    };
    sent.length = 0;
    const nextDay = new Date('2026-11-26T12:00:00Z');
    await expect(sendDailyEmails(flaky, a.tenantId, nextDay)).rejects.toThrow('Daily email not sent to owner-a@example.com');
    expect((await sends()).filter((s) => s.day === '2026-11-27')).toEqual([]);
    expect(await sendDailyEmails(flaky, a.tenantId, nextDay)).toEqual({ day: '2026-11-27', sent: 1, alreadySent: 0 });
    expect(sent).toHaveLength(1);
  });

  it('turns the email off from the link without a session, refuses a tampered or foreign token and changes nothing then', async () => {
    sent.length = 0;
    await sendDailyEmails(deps, a.tenantId, new Date('2026-11-27T12:00:00Z'));
    const token = tokenOf(sent[0]!);

    // One character of the signature changed where it carries six bits of it: the last characters
    // of base64url also carry padding bits, and 'BA' → 'BB' decoded to the same signature.
    const [tenantPart, userPart, signature] = token.split('.') as [string, string, string];
    const tampered = `${tenantPart}.${userPart}.${signature[0] === 'A' ? 'Q' : 'A'}${signature.slice(1)}`;
    const foreign = unsubscribeSigner('another-secret-another-secret-another-0').sign(a.tenantId, a.owner.userId);
    const otherCompany = `${b.tenantId}.${a.owner.userId}.${token.split('.')[2]}`;
    for (const bad of [tampered, foreign, otherCompany, 'nonsense', '']) {
      const res = await unsubscribeWith(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.message).toBe(INVALID_UNSUBSCRIBE_LINK);
    }
    expect((await setting(a.cookie)).json()).toMatchObject({ enabled: true });

    const res = await unsubscribeWith(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'owner-a@example.com', company_name: 'Acme Rentals' });
    expect((await setting(a.cookie)).json()).toMatchObject({ enabled: false });
    expect((await setting(b.cookie)).json()).toMatchObject({ enabled: true });
    expect(await sendDailyEmails(deps, a.tenantId, new Date('2026-11-28T12:00:00Z'))).toMatchObject({ sent: 0, skipped: 'no recipients' });
  });

  it("unsubscribes by the one-click POST of the List-Unsubscribe header (RFC 8058)", async () => {
    sent.length = 0;
    await sendDailyEmails(deps, b.tenantId, new Date('2026-11-26T12:00:00Z'));
    const url = new URL(sent[0]!.headers!['List-Unsubscribe']!.slice(1, -1));
    const res = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect((await setting(b.cookie)).json()).toMatchObject({ enabled: false });
  });

  it('sends nothing while the company is behind the expired-trial gate, and the member can still change the setting', async () => {
    // The gate is judged at the send instant, so the trial ends just before it (not before the
    // wall clock's now, which passes the instant on its day).
    const sendAt = new Date('2026-11-27T12:00:00Z');
    await setTrialEnd(t.database.db, b.tenantId, new Date(Math.min(Date.now(), sendAt.getTime()) - 1000));
    try {
      expect((await optIn(b.cookie, true)).statusCode).toBe(200);
      sent.length = 0;
      expect(await sendDailyEmails(deps, b.tenantId, sendAt)).toEqual({
        day: '2026-11-27',
        sent: 0,
        alreadySent: 0,
        skipped: 'subscription required',
      });
      expect(sent).toEqual([]);
    } finally {
      await setTrialEnd(t.database.db, b.tenantId, new Date(Date.now() + 14 * 86_400_000));
    }
  });

  it('schedules the next morning at the send hour of the company, once per company and day, and the job sends the day it is due', async () => {
    expect(sendInstant('2026-11-26', 7, 'Pacific/Kiritimati').toISOString()).toBe('2026-11-25T17:00:00.000Z');
    expect(nextSendDay(new Date('2026-11-25T16:59:00Z'), 7, 'Pacific/Kiritimati')).toBe('2026-11-26');
    expect(nextSendDay(new Date('2026-11-25T17:00:00Z'), 7, 'Pacific/Kiritimati')).toBe('2026-11-27');

    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    try {
      const jobs = await queuedDailyEmailJobs(queue, deps, () => new Date());
      expect((await optIn(a.cookie, true)).statusCode).toBe(200);
      await jobs.scheduleNext(a.tenantId);
      await jobs.scheduleNext(a.tenantId);
      // Nobody of company B wants it: nothing is queued for B.
      expect((await optIn(b.cookie, false)).statusCode).toBe(200);
      await jobs.scheduleNext(b.tenantId);
      const waiting = await queryRows<{ tenant_id: string; day: string; start_after: Date | string }>(
        t.database.db,
        sql`select data->>'tenantId' as tenant_id, data->>'day' as day, start_after from pgboss.job where name = 'daily-email' and state = 'created'`,
      );
      expect(waiting.map((j) => j.tenant_id)).toEqual([a.tenantId]);
      const day = nextSendDay(new Date(), 7, 'Pacific/Kiritimati');
      expect(waiting.map((j) => j.day)).toEqual([day]);
      expect(new Date(waiting[0]!.start_after).toISOString()).toBe(sendInstant(day, 7, 'Pacific/Kiritimati').toISOString());

      // A job due now (today in the company's zone) sends today's email and queues tomorrow's.
      await t.database.db.execute(sql`delete from daily_email_sends`);
      sent.length = 0;
      const today = localDay(new Date(), 'Pacific/Kiritimati');
      await queue.boss.send('daily-email', { tenantId: a.tenantId, day: today }, { singletonKey: `${a.tenantId}:${today}:now` });
      for (let i = 0; i < 60 && sent.length === 0; i++) await sleep(250);
      expect(sent.map((m) => m.to)).toEqual(['owner-a@example.com']);
    } finally {
      await queue.stop();
    }
  });
});
