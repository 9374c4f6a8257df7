/**
 * A company's webhooks on both databases (docs/product.md "Webhooks", docs/decisions/050-webhooks.md),
 * delivered to a receiver on loopback that verifies every request with the `standardwebhooks`
 * library: endpoints created, listed, changed and deleted by admins and owners (the secret shown
 * once and stored sealed), refused to members and to API keys; another company's endpoints and
 * deliveries out of reach, and its events never delivered here; `record_webhook_event` writing
 * nothing when no endpoint wants the event; a delivery signed and verified; a 500 and a timeout
 * retried with the same webhook-id; a delivery whose lease another sender holds (a second server,
 * or one restarted mid-attempt) not sent twice; an endpoint failing for 3 days disabled with an
 * email to its admins and owners; Resend; the test event; the address guard; the pg-boss chain.
 * The walk of every route with every role and key is in server/access.test.ts, another company's
 * ids on every route in server/db/tenancy.test.ts.
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CreateWebhookEndpointAnswer, WebhookDelivery, WebhookEndpoint } from '../../../common/contracts/webhooks';
import { KEY_NOT_ALLOWED_MESSAGE } from '../../access';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openPostgres, queryRows, type Database } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { startJobQueue } from '../../jobs/queue';
import { postWebhook } from '../../integrations/webhook-post';
import { ROLE_REFUSED_MESSAGE } from '../../lib/roles';
import { secretBox } from '../../lib/secret-box';
import { api, apiWithKey, APP_URL, backends, createTestApp, signUpAndSignIn, TEST_APP_SECRET, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { claimInTenant, ENDPOINT_FAILING_DAYS, EVENT_RETENTION_DAYS, leaseMs, pruneOldEvents, sendDueDeliveries, type WebhookDeps } from './delivery';
import { recordWebhookEvent } from './record-event';

/** One request the receiver got, and whether its signature verified with the endpoint's secret. */
interface Received {
  path: string;
  id: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
}

/** What the receiver answers at a path: a status, 'hang' (never answers) or 'flood' (200 and a body that never ends). */
type Answer = number | 'hang' | 'flood';

const TIMEOUT_MS = 800;

describe.each(backends)('webhooks on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let other: StockTenant;
  let adminCookie: string;
  let memberCookie: string;
  let receiver: http.Server;
  let base: string;
  const received: Received[] = [];
  /** Answers to give per path, in order; 200 once they run out. */
  const plans = new Map<string, Answer[]>();
  /** Secrets by path, to verify what arrives. */
  const secrets = new Map<string, string>();
  /** Requests left hanging, answered at the end of their test. */
  const hanging: ServerResponse[] = [];
  /** The clock of the senders the tests drive (and of the app). */
  let clock: Date | null = null;

  const depsOn = (db = t.database.db, timeoutMs = TIMEOUT_MS): WebhookDeps => ({
    db,
    box: secretBox(TEST_APP_SECRET, 'webhook-secrets'),
    mailer: { send: async (m) => void t.mail.push(m) },
    appUrl: APP_URL,
    now: () => clock ?? new Date(),
    post: { timeoutMs, maxResponseBytes: 64 * 1024, allowLoopback: true },
  });
  /**
   * The senders' clock set to now, a millisecond ahead: a delivery is due from the database's
   * now() of its event's transaction, in microseconds, and a JavaScript Date read within the same
   * millisecond truncates below it (the delivery would not be due yet).
   */
  const clockNow = () => {
    clock = new Date(Date.now() + 1);
  };
  const moveClock = (ms: number) => {
    clock = new Date((clock ?? new Date()).getTime() + ms);
    t.setNow(clock);
  };

  const joinAs = async (email: string, role: 'member' | 'admin') => {
    const cookie = await signUpAndSignIn(t, email);
    const me = (await api(t, cookie, 'GET', '/api/me')).json() as { user: { id: string } };
    await t.database.db.execute(sql`insert into memberships (tenant_id, id, user_id, role) values (${s.tenantId}, ${randomUUID()}, ${me.user.id}, ${role})`);
    return cookie;
  };
  /** Creates an endpoint at the receiver's `path` for `events`, as the owner of `who`. */
  const create = async (path: string, events: string[] = ['stock.low'], who: StockTenant = s) => {
    const res = await api(t, who.cookie, 'POST', '/api/webhooks', { url: `${base}${path}`, events });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json() as CreateWebhookEndpointAnswer;
    secrets.set(path, answer.secret);
    return answer;
  };
  const record = (type: 'stock.low' | 'stock.critical', data: Record<string, unknown>, who: StockTenant = s) =>
    withTenant(t.database.db, who.tenantId, (tx) => recordWebhookEvent(tx, who.tenantId, type, data));
  const deliveries = async (endpointId: string, cookie = s.cookie) => {
    const res = await api(t, cookie, 'GET', `/api/webhooks/${endpointId}/deliveries`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { deliveries: WebhookDelivery[] }).deliveries;
  };
  const at = (path: string) => received.filter((r) => r.path === path);

  beforeAll(async () => {
    receiver = http.createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        try {
          new Webhook(secrets.get(path) ?? 'whsec_AAAA').verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        received.push({ path, id: String(req.headers['webhook-id']), body: JSON.parse(body) as Received['body'], verified });
        const answer = plans.get(path)?.shift() ?? 200;
        if (answer === 'hang') hanging.push(res);
        else if (answer === 'flood') {
          res.writeHead(200);
          const flood = setInterval(() => res.write(Buffer.alloc(16 * 1024, 120)), 1);
          res.on('close', () => clearInterval(flood));
        } else res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createTestApp(backend, { env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    s = await stockTenant(t, 'owner@example.com');
    other = await stockTenant(t, 'other@example.com');
    adminCookie = await joinAs('admin@example.com', 'admin');
    memberCookie = await joinAs('member@example.com', 'member');
  });
  // Each test starts with no endpoint and no event, on the real clock.
  afterEach(async () => {
    for (const res of hanging.splice(0)) res.writeHead(200).end();
    plans.clear();
    clock = null;
    t.setNow(null as unknown as Date);
    await t.database.db.execute(sql`delete from webhook_endpoints`);
    await t.database.db.execute(sql`delete from webhook_events`);
  });
  afterAll(async () => {
    await t?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('lets admins and owners create, list, change and delete endpoints; shows the secret once and stores it sealed', async () => {
    const res = await api(t, adminCookie, 'POST', '/api/webhooks', { url: `${base}/crud`, description: '  Stock sync  ', events: ['stock.critical', 'stock.low'] });
    expect(res.statusCode, res.body).toBe(201);
    const { endpoint, secret } = res.json() as CreateWebhookEndpointAnswer;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({ url: `${base}/crud`, description: 'Stock sync', events: ['stock.low', 'stock.critical'], status: 'enabled', disabled_reason: null, failing_since: null });

    const listed = await api(t, s.cookie, 'GET', '/api/webhooks');
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { endpoints: WebhookEndpoint[] }).endpoints.find((e) => e.id === endpoint.id)).toEqual(endpoint);
    expect(listed.body).not.toContain(secret);
    const [stored] = await queryRows<{ row: string; secret_enc: string }>(t.database.db, sql`select row_to_json(e)::text as row, secret_enc from webhook_endpoints e where id = ${endpoint.id}`);
    expect(stored!.row).not.toContain(secret.slice(6));
    expect(secretBox(TEST_APP_SECRET, 'webhook-secrets').open(stored!.secret_enc)).toBe(secret);

    const changed = await api(t, adminCookie, 'PATCH', `/api/webhooks/${endpoint.id}`, { events: ['stock.counted'], enabled: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().endpoint).toMatchObject({ events: ['stock.counted'], status: 'disabled', disabled_reason: 'Disabled by admin@example.com' });
    const enabled = await api(t, s.cookie, 'PATCH', `/api/webhooks/${endpoint.id}`, { enabled: true, url: `${base}/crud2` });
    expect(enabled.json().endpoint).toMatchObject({ url: `${base}/crud2`, status: 'enabled', disabled_reason: null, failing_since: null });

    expect((await api(t, adminCookie, 'DELETE', `/api/webhooks/${endpoint.id}`)).statusCode).toBe(204);
    expect((await api(t, adminCookie, 'DELETE', `/api/webhooks/${endpoint.id}`)).statusCode).toBe(404);
    expect((await api(t, s.cookie, 'GET', '/api/webhooks')).body).not.toContain(endpoint.id);
  });

  it('validates at the edge with messages naming the field and the limit', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://hooks.example/x', events: ['stock.low'] }, 'URL must start with https:// or http://'],
      [{ url: 'https://hooks.example/x', events: [] }, 'Choose at least one event'],
      [{ url: `https://hooks.example/${'x'.repeat(2000)}`, events: ['stock.low'] }, 'URL must be at most 2,000 characters'],
      [{ url: 'https://hooks.example/x', description: 'd'.repeat(201), events: ['stock.low'] }, 'Description must be at most 200 characters'],
      [{ url: 'https://hooks.example/x\u0000', events: ['stock.low'] }, 'URL must not contain spaces or control characters'],
      [{ url: 'https://hooks.example/x', events: ['stock.gone'] }, 'Events must be event types of the list'],
      [{ url: 'http://10.0.0.1/hook', events: ['stock.low'] }, 'URL must not point to a private or local address'],
      [{ url: 'http://169.254.169.254/latest', events: ['stock.low'] }, 'URL must not point to a private or local address'],
    ];
    for (const [body, message] of cases) {
      const res = await api(t, s.cookie, 'POST', '/api/webhooks', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.issues?.map((i: { message: string }) => i.message) ?? [res.json().error.message], JSON.stringify(body).slice(0, 80)).toContain(message);
    }
  });

  it('refuses members and API keys, and every route of another company', async () => {
    const { endpoint } = await create('/guarded');
    const refused = await api(t, memberCookie, 'GET', '/api/webhooks');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(ROLE_REFUSED_MESSAGE);
    expect((await api(t, memberCookie, 'POST', '/api/webhooks', { url: `${base}/m`, events: ['stock.low'] })).statusCode).toBe(403);

    const key = (await api(t, s.cookie, 'POST', '/api/api-keys', { name: 'Admin key', role: 'admin' })).json().key as string;
    for (const [method, url] of [
      ['GET', '/api/webhooks'],
      ['GET', `/api/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/api/webhooks/${endpoint.id}/test`],
      ['DELETE', `/api/webhooks/${endpoint.id}`],
    ] as const) {
      const res = await apiWithKey(t.app, key, method, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.message).toBe(KEY_NOT_ALLOWED_MESSAGE);
    }

    // The other company's owner: every route with this company's endpoint answers 404, nothing changes.
    await record('stock.low', { n: 1 });
    const [delivery] = await deliveries(endpoint.id);
    for (const [method, url, body] of [
      ['GET', `/api/webhooks/${endpoint.id}/deliveries`, undefined],
      ['PATCH', `/api/webhooks/${endpoint.id}`, { url: 'https://hooks.example/stolen' }],
      ['POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery!.id}/resend`, undefined],
      ['POST', `/api/webhooks/${endpoint.id}/test`, undefined],
      ['DELETE', `/api/webhooks/${endpoint.id}`, undefined],
    ] as const) {
      expect((await api(t, other.cookie, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await api(t, other.cookie, 'GET', '/api/webhooks')).body).not.toContain(endpoint.id);
    expect((await deliveries(endpoint.id)).map((d) => d.id)).toEqual([delivery!.id]);
    expect(at('/guarded')).toEqual([]);
  });

  it("records an event only for the company's enabled endpoints subscribed to it, and nothing when none wants it", async () => {
    const count = async () => (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from webhook_events`))[0]!.n;
    const mine = await create('/mine', ['stock.critical']);
    const theirs = await create('/theirs', ['stock.critical'], other);
    const before = await count();
    // A type nobody subscribes to (stock.low endpoints of this company exist, but disabled ones do not count).
    await withTenant(t.database.db, other.tenantId, (tx) => recordWebhookEvent(tx, other.tenantId, 'stock.low', { x: 1 }));
    expect(await count()).toBe(before);
    // Row-level security: a company's transaction cannot record for another company.
    await withTenant(t.database.db, s.tenantId, (tx) => recordWebhookEvent(tx, other.tenantId, 'stock.critical', { x: 1 }));
    expect(await count()).toBe(before);

    await record('stock.critical', { item: 'Bath Towel' });
    expect(await count()).toBe(before + 1);
    await sendDueDeliveries(depsOn());
    expect(at('/mine').map((r) => r.body.data)).toEqual([{ item: 'Bath Towel' }]);
    expect(at('/theirs')).toEqual([]);
    expect(await deliveries(theirs.endpoint.id, other.cookie)).toEqual([]);
    expect(await deliveries(mine.endpoint.id)).toHaveLength(1);

    await api(t, s.cookie, 'PATCH', `/api/webhooks/${mine.endpoint.id}`, { enabled: false });
    await record('stock.critical', { item: 'Soap' });
    expect(await count()).toBe(before + 1);
  });

  it('delivers an event signed the Standard Webhooks way, the envelope as body', async () => {
    const { endpoint } = await create('/signed', ['stock.low']);
    await record('stock.low', { item_id: s.itemIds['Bath Towel'], quantity: 2 });
    expect(await sendDueDeliveries(depsOn())).toEqual({ attempts: 1, succeeded: 1 });
    const [got] = at('/signed');
    expect(got!.verified).toBe(true);
    expect(got!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got!.body).toEqual({ type: 'stock.low', timestamp: expect.any(String), data: { item_id: s.itemIds['Bath Towel'], quantity: 2 } });
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ event_id: got!.id, event_type: 'stock.low', status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
    expect(delivery!.last_duration_ms).toBeGreaterThanOrEqual(0);
    // Nothing is due any more.
    expect(await sendDueDeliveries(depsOn())).toEqual({ attempts: 0, succeeded: 0 });
  });

  it('retries a 500 after its pause with the same webhook-id, and a timeout too, until a 2xx', async () => {
    const { endpoint } = await create('/flaky', ['stock.low']);
    plans.set('/flaky', [500, 'hang', 200]);
    await record('stock.low', { n: 1 });
    clockNow();
    expect(await sendDueDeliveries(depsOn())).toEqual({ attempts: 1, succeeded: 0 });
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'Answered 500' });
    expect(Date.parse(delivery!.next_attempt_at!) - Date.parse(delivery!.last_attempt_at!)).toBe(5_000);
    expect((await api(t, s.cookie, 'GET', '/api/webhooks')).json().endpoints.find((e: WebhookEndpoint) => e.id === endpoint.id).failing_since).toBe(delivery!.last_attempt_at);

    // Not due before its pause has passed.
    moveClock(4_000);
    expect((await sendDueDeliveries(depsOn())).attempts).toBe(0);
    moveClock(1_500);
    expect(await sendDueDeliveries(depsOn())).toEqual({ attempts: 1, succeeded: 0 });
    [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, last_status_code: null, last_error: 'No answer within 0.8 seconds' });
    expect(Date.parse(delivery!.next_attempt_at!) - Date.parse(delivery!.last_attempt_at!)).toBe(300_000);

    moveClock(300_000);
    expect(await sendDueDeliveries(depsOn())).toEqual({ attempts: 1, succeeded: 1 });
    [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 200, last_error: null, next_attempt_at: null });
    const ids = at('/flaky').map((r) => r.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    // The last attempt was signed at the moved clock, past the receiver's 5 minutes of tolerance.
    expect(at('/flaky').map((r) => r.verified)).toEqual([true, true, false]);
    expect((await api(t, s.cookie, 'GET', '/api/webhooks')).json().endpoints.find((e: WebhookEndpoint) => e.id === endpoint.id).failing_since).toBeNull();
  });

  it('reads at most 64 KiB of an answer: a body that never ends does not hold the sender', async () => {
    const { endpoint } = await create('/flood', ['stock.low']);
    plans.set('/flood', ['flood']);
    await record('stock.low', { n: 1 });
    expect(await sendDueDeliveries(depsOn(t.database.db, 5_000))).toEqual({ attempts: 1, succeeded: 1 });
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', last_status_code: 200 });
    expect(delivery!.last_duration_ms).toBeLessThan(4_000);
  });

  it('never sends a delivery twice while another sender holds its lease: a second server, or this one restarted mid-attempt', async () => {
    const { endpoint } = await create('/leased', ['stock.low']);
    // On PostgreSQL the second server has its own pool, like another process; the embedded
    // database has one connection, so the second sender shares it.
    const url = t.database.pool?.options.connectionString;
    const secondDatabase: Database | undefined = url ? openPostgres(url, 2) : undefined;
    const second = depsOn(secondDatabase?.db ?? t.database.db);
    try {
      plans.set('/leased', ['hang']);
      await record('stock.low', { n: 1 });
      const slow = depsOn(t.database.db, 5_000);
      const first = sendDueDeliveries(slow);
      for (let i = 0; i < 100 && at('/leased').length === 0; i++) await sleep(20);
      expect(at('/leased')).toHaveLength(1);
      // The first sender is waiting for the receiver, its lease committed: the second finds nothing to send.
      expect(await sendDueDeliveries(second)).toEqual({ attempts: 0, succeeded: 0 });
      hanging.shift()!.writeHead(204).end();
      expect(await first).toEqual({ attempts: 1, succeeded: 1 });
      expect(at('/leased')).toHaveLength(1);

      // A sender that died after claiming (its lease committed, no outcome written).
      await record('stock.low', { n: 2 });
      const [pending] = await queryRows<{ id: string }>(t.database.db, sql`select id from webhook_deliveries where endpoint_id = ${endpoint.id} and status = 'pending'`);
      const now = new Date();
      clock = now;
      const claimed = await withTenant(t.database.db, s.tenantId, (tx) => claimInTenant(tx, s.tenantId, [pending!.id], now, leaseMs(second.post)));
      expect(claimed).toHaveLength(1);
      expect(await sendDueDeliveries(second)).toEqual({ attempts: 0, succeeded: 0 });
      moveClock(leaseMs(second.post) - 1_000);
      expect(await sendDueDeliveries(second)).toEqual({ attempts: 0, succeeded: 0 });
      // Once the lease has run out, the delivery is sent again (at least once), counted as a second attempt.
      moveClock(2_000);
      expect(await sendDueDeliveries(second)).toEqual({ attempts: 1, succeeded: 1 });
      expect(at('/leased')).toHaveLength(2);
      expect((await deliveries(endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, event_id: claimed[0]!.eventId });
    } finally {
      await secondDatabase?.close();
    }
  });

  it(`disables an endpoint failing for ${ENDPOINT_FAILING_DAYS} days and emails the company's admins and owners`, async () => {
    const { endpoint } = await create('/down', ['stock.low']);
    plans.set('/down', Array.from({ length: 20 }, () => 503));
    await record('stock.low', { n: 1 });
    clockNow();
    await sendDueDeliveries(depsOn());
    const mailsBefore = t.mail.length;
    // Three days later, still failing: a new event, and the first one's retry.
    moveClock(ENDPOINT_FAILING_DAYS * 86_400_000 - 60_000);
    await record('stock.low', { n: 2 });
    await sendDueDeliveries(depsOn());
    let listed = (await api(t, s.cookie, 'GET', '/api/webhooks')).json().endpoints.find((e: WebhookEndpoint) => e.id === endpoint.id) as WebhookEndpoint;
    expect(listed.status).toBe('enabled');
    moveClock(120_000);
    await record('stock.low', { n: 3 });
    await sendDueDeliveries(depsOn());
    listed = (await api(t, s.cookie, 'GET', '/api/webhooks')).json().endpoints.find((e: WebhookEndpoint) => e.id === endpoint.id) as WebhookEndpoint;
    expect(listed).toMatchObject({ status: 'disabled', disabled_reason: 'Failing for 3 days' });
    expect((await deliveries(endpoint.id)).map((d) => d.status)).toEqual(['failed', 'failed', 'failed']);
    const mails = t.mail.slice(mailsBefore);
    expect(mails.map((m) => m.to).sort()).toEqual(['admin@example.com', 'owner@example.com']);
    expect(mails[0]!.subject).toBe('A webhook endpoint of Acme Rentals was disabled');
    expect(mails[0]!.text).toContain(`${base}/down`);
    expect(mails[0]!.text).toContain(`${APP_URL}/webhooks`);
    // Disabled: nothing is sent any more, a new event is not recorded for it, Resend and the test event are refused.
    const sent = at('/down').length;
    await record('stock.low', { n: 4 });
    moveClock(86_400_000);
    await sendDueDeliveries(depsOn());
    expect(at('/down')).toHaveLength(sent);
    const test = await api(t, s.cookie, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(test.statusCode).toBe(409);
    expect(test.json().error.message).toBe('This endpoint is disabled. Enable it to send a test event.');
    const [last] = await deliveries(endpoint.id);
    expect((await api(t, s.cookie, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${last!.id}/resend`)).statusCode).toBe(409);
    // Enabled again: its failing state is cleared.
    const enabled = await api(t, s.cookie, 'PATCH', `/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(enabled.json().endpoint).toMatchObject({ status: 'enabled', disabled_reason: null, failing_since: null });
  });

  it('Resend makes a new attempt now with the same webhook-id; the test event reaches that endpoint alone', async () => {
    const { endpoint } = await create('/resend', ['stock.low']);
    const bystander = await create('/bystander', ['stock.low']);
    await record('stock.low', { n: 1 });
    await sendDueDeliveries(depsOn());
    const [delivery] = await deliveries(endpoint.id);
    const res = await api(t, s.cookie, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery!.id}/resend`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().delivery).toMatchObject({ id: delivery!.id, event_id: delivery!.event_id, status: 'succeeded', attempts: 2 });
    expect(at('/resend').map((r) => [r.id, r.verified])).toEqual([
      [delivery!.event_id, true],
      [delivery!.event_id, true],
    ]);
    expect((await api(t, s.cookie, 'POST', `/api/webhooks/${bystander.endpoint.id}/deliveries/${delivery!.id}/resend`)).statusCode).toBe(404);

    plans.set('/resend', [500]);
    const test = await api(t, adminCookie, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().delivery).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 1, last_status_code: 500 });
    const tested = at('/resend').at(-1)!;
    expect(tested).toMatchObject({ verified: true, body: { type: 'webhook.test', data: { endpoint_id: endpoint.id } } });
    expect(at('/bystander').map((r) => r.body.type)).toEqual(['stock.low']);
  });

  it('refuses private and local addresses unless loopback is allowed, which allows loopback alone', async () => {
    const strict = { timeoutMs: 1000, maxResponseBytes: 1024, allowLoopback: false };
    const message = { secret: 'whsec_' + Buffer.alloc(24, 1).toString('base64'), id: 'msg_test', sentAt: new Date(), body: '{}' };
    for (const url of ['http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost:9/hook', `${base}/strict`, 'http://[::ffff:127.0.0.1]/x']) {
      const outcome = await postWebhook({ ...message, url }, strict);
      expect(outcome, url).toMatchObject({ ok: false, statusCode: null, error: 'URL points to a private or local address' });
    }
    // A public name that resolves to a private address is refused too.
    const outcome = await postWebhook({ ...message, url: 'https://hooks.example/x' }, { ...strict, resolve: async () => ['93.184.216.34', '10.1.2.3'] });
    expect(outcome.error).toBe('URL points to a private or local address');
    expect(at('/strict')).toEqual([]);
    expect((await postWebhook({ ...message, url: 'http://10.0.0.1/hook' }, { ...strict, allowLoopback: true })).error).toBe('URL points to a private or local address');

    // And when saved, on a server without the flag.
    const strictApp = await buildApp({ config: { ...loadConfig({ APP_URL }), appSecret: TEST_APP_SECRET }, db: t.database.db, mailer: { send: async () => {} } });
    try {
      for (const url of ['http://localhost:8080/hook', 'http://127.0.0.1:8080/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest']) {
        const res = await strictApp.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: s.cookie, origin: APP_URL, 'content-type': 'application/json' }, payload: { url, events: ['stock.low'] } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error.message, url).toBe('URL must not point to a private or local address');
      }
    } finally {
      await strictApp.close();
    }
  });

  it(`keeps events and their deliveries ${EVENT_RETENTION_DAYS} days`, async () => {
    const { endpoint } = await create('/kept', ['stock.low']);
    await record('stock.low', { n: 1 });
    const now = new Date();
    expect(await pruneOldEvents(t.database.db, new Date(now.getTime() + (EVENT_RETENTION_DAYS - 1) * 86_400_000))).toBe(0);
    expect(await deliveries(endpoint.id)).toHaveLength(1);
    expect(await pruneOldEvents(t.database.db, new Date(now.getTime() + (EVENT_RETENTION_DAYS + 1) * 86_400_000))).toBe(1);
    expect(await deliveries(endpoint.id)).toEqual([]);
  });

  // The chain of pg-boss jobs; not on Citus, whose suite runs no job queue.
  it.skipIf(Boolean(inject('citusUrl')))('the job queue sends due deliveries by itself', async () => {
    await create('/queued', ['stock.low']);
    const queue = await startJobQueue(t.database, { pollingIntervalSeconds: 0.5 });
    const app = await buildApp({
      config: { ...loadConfig({ APP_URL, WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1' }), appSecret: TEST_APP_SECRET },
      db: t.database.db,
      mailer: { send: async () => {} },
      jobs: queue,
    });
    try {
      await record('stock.low', { n: 'queued' });
      for (let i = 0; i < 80 && at('/queued').length === 0; i++) await sleep(250);
      expect(at('/queued').map((r) => [r.body.data, r.verified])).toEqual([[{ n: 'queued' }, true]]);

      // An endpoint saved to receive forecast.short schedules the company's next morning, which
      // records that event (daily-email/jobs.ts), whether or not anyone gets the email.
      const mornings = () =>
        queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from pgboss.job where name = 'daily-email' and state = 'created' and data->>'tenantId' = ${s.tenantId}`);
      await t.database.db.execute(sql`delete from pgboss.job where name = 'daily-email' and data->>'tenantId' = ${s.tenantId}`);
      const headers = { cookie: s.cookie, origin: APP_URL, 'content-type': 'application/json' };
      const saved = await app.inject({ method: 'POST', url: '/api/webhooks', headers, payload: { url: `${base}/mornings`, events: ['stock.low'] } });
      expect(saved.statusCode, saved.body).toBe(201);
      expect((await mornings())[0]!.n).toBe(0);
      const id = (saved.json() as CreateWebhookEndpointAnswer).endpoint.id;
      const changed = await app.inject({ method: 'PATCH', url: `/api/webhooks/${id}`, headers, payload: { events: ['stock.low', 'forecast.short'] } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await mornings())[0]!.n).toBe(1);
    } finally {
      await app.close();
      await queue.stop();
    }
  }, 40_000);
});
