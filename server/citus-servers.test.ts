/**
 * The product as it ships, on Citus (docs/operations.md "Moving to Citus", decisions 042 and
 * 056): a new database on the Citus suite's cluster (a coordinator and two workers) set up by the
 * guide's steps exactly — the database and `create extension citus` on every node, the workers
 * added (server/test/citus.ts `prepareCitusDatabase`), `npm run db:migrate` (run twice: on a new
 * database and on one where everything exists), `npm run db:distribute` — then the bundled server
 * (`dist/server.mjs`, as `npm start` builds it) started twice on the coordinator, as two servers
 * behind a balancer. Checked on them, as the two-server tests check on PostgreSQL
 * (server/modules/auth/session.test.ts, server/lib/limits.test.ts, server/modules/team/team.test.ts):
 * both ready, with the job queue's schema on the coordinator only; a sign-out on one refused on the
 * other at once; an email changed in the `users` reference table seen by both at once (its
 * trigger notifies from the coordinator's placement); a role lowered and a member removed on one
 * refused on the next request to the other; a rate limit shared; a job run once (a webhook
 * delivered once, though both servers poll for it); a company isolated to a shard of its own
 * (`isolate_tenant_to_new_shard`) and that shard moved to the other worker while both servers
 * serve it, no answer a 5xx; both stop cleanly.
 *
 * In the Citus suite only (`npm run test:citus`, which starts the cluster); elsewhere it says it
 * skipped. ~60 s.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleServer, freePort, startServer, type RunningServer } from '../e2e/fixtures/server';
import { startSmtpSink, type SmtpSink } from '../e2e/fixtures/smtp-sink';
import { withClient } from './db/pg-url';
import { JOB_SCHEMA_VERSION } from './jobs/queue';
import { dropCitusDatabase, prepareCitusDatabase, type CitusDatabase } from './test/citus';
import { TEST_PASSWORD } from './test/harness';

const citusUrl = inject('citusUrl');

/** Requests one API key may make per minute on these servers, every server together. */
const KEY_REQUESTS_PER_MINUTE = 6;

/** An answer: its status, its body as JSON (null when empty or not JSON), its headers. */
interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  headers: Headers;
}

/**
 * `method path` on `server`, as a browser of that server's page sends it (its own origin), with
 * the session `cookie` or the API key `bearer`, and `body` as JSON.
 */
async function call(server: RunningServer, method: string, path: string, opts: { cookie?: string; bearer?: string; body?: unknown } = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      origin: server.url,
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    // Not JSON (a redirect's empty page): no body to read.
  }
  return { status: res.status, body, headers: res.headers };
}

/** As {@link call}, failing unless the answer is `status`; returns its body. */
async function expectStatus(status: number, server: RunningServer, method: string, path: string, opts: { cookie?: string; bearer?: string; body?: unknown } = {}) {
  const answer = await call(server, method, path, opts);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body ?? {};
}

/** Signs `email` in on `server`; returns the session's Cookie header. */
async function signIn(server: RunningServer, email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

/** Runs `npm run <script>` with `env` added; resolves with its exit code and output. */
function npmRun(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** A webhook receiver on loopback that answers 204 and keeps each request's `webhook-id` and body. */
async function startReceiver(): Promise<{ url: string; received: { id: string; type: string }[]; close(): Promise<void> }> {
  const received: { id: string; type: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), type: (JSON.parse(body) as { type: string }).type });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!citusUrl)('two bundled servers on a Citus coordinator and two workers, set up by the operations guide', () => {
  const name = `${inject('pgRunPrefix')}servers_${randomBytes(4).toString('hex')}`;
  let cluster: CitusDatabase | undefined;
  let smtp: SmtpSink;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const servers: RunningServer[] = [];
  let a: RunningServer;
  let b: RunningServer;
  const coordinator = <T,>(fn: (c: pg.Client) => Promise<T>) => withClient(cluster!.url, fn);

  // The company, made on server a.
  const ownerEmail = 'owner@citus.example';
  let owner = '';
  let tenantId = '';
  let garageId = '';
  let itemId = '';

  beforeAll(async () => {
    bundleServer();
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    // Step 1: the database and the extension on every node, the workers added.
    cluster = await prepareCitusDatabase(citusUrl!, name);
    const env = { DATABASE_URL: cluster.url, APP_SECRET: randomBytes(32).toString('base64url') };
    // Step 2, on a new database and again on one where everything exists; step 3.
    const migrated = await npmRun('db:migrate', env);
    expect(migrated, migrated.output).toMatchObject({ code: 0 });
    expect(migrated.output).toContain(`The job queue's schema pgboss was created (version ${JOB_SCHEMA_VERSION}).`);
    const again = await npmRun('db:migrate', env);
    expect(again, again.output).toMatchObject({ code: 0 });
    expect(again.output).toContain(`The job queue's schema pgboss is up to date (version ${JOB_SCHEMA_VERSION}).`);
    const distributed = await npmRun('db:distribute', env);
    expect(distributed, distributed.output).toMatchObject({ code: 0 });
    // Step 4: the servers on the coordinator, mail through one SMTP server.
    const serverEnv = {
      ...env,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_POLL_SECONDS: '1',
      API_KEY_REQUESTS_PER_MINUTE: String(KEY_REQUESTS_PER_MINUTE),
    };
    const ports = [await freePort(), await freePort()];
    const started = await Promise.allSettled(ports.map((port) => startServer(port, serverEnv)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'up'))).toEqual(['up', 'up']);
    [a, b] = servers as [RunningServer, RunningServer];

    // An owner who signs up and confirms by the emailed link, and sets the company up, on a.
    await expectStatus(200, a, 'POST', '/api/auth/sign-up/email', { body: { email: ownerEmail, password: TEST_PASSWORD, name: 'Citus Owner' } });
    const link = (await smtp.waitFor(ownerEmail)).text.match(/https?:\/\/\S+verify-email\S+/)![0];
    expect((await fetch(link, { redirect: 'manual' })).status).toBeLessThan(400);
    owner = await signIn(a, ownerEmail);
    tenantId = (await expectStatus(201, a, 'POST', '/api/onboarding/company', { cookie: owner, body: { company_name: 'Sharded Stays' } })).tenant_id as string;
    await expectStatus(200, a, 'POST', '/api/onboarding/items', { cookie: owner, body: { items: [{ name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 }] } });
    itemId = ((await expectStatus(200, a, 'GET', '/api/onboarding/setup', { cookie: owner })).items as unknown as { id: string }[])[0]!.id;
    garageId = (await expectStatus(200, a, 'POST', '/api/onboarding/garage', { cookie: owner, body: { name: 'Main Storage', address: '1 Depot Road', stock: [{ item_id: itemId, quantity: 40 }] } })).id as string;
    await expectStatus(200, a, 'POST', '/api/onboarding/units', { cookie: owner, body: { units: [{ name: 'Beach House', address: '2 Shore Lane' }] } });
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await smtp?.close();
    await receiver?.close();
    if (cluster) await dropCitusDatabase(citusUrl!, name);
  }, 60_000);

  it("both are ready, and the job queue's schema is on the coordinator only", async () => {
    for (const server of [a, b]) expect((await call(server, 'GET', '/api/ready')).status).toBe(200);
    const version = await coordinator((c) => c.query<{ version: number }>('select version::int as version from pgboss.version'));
    expect(version.rows).toEqual([{ version: JOB_SCHEMA_VERSION }]);
    for (const workerUrl of cluster!.workerUrls) {
      const { rows } = await withClient(workerUrl, (c) => c.query<{ schema: string | null }>(`select to_regnamespace('pgboss')::text as schema`));
      expect(rows, workerUrl).toEqual([{ schema: null }]);
    }
  });

  it('refuses on one server a session signed out on the other, at once', async () => {
    const session = await signIn(b, ownerEmail);
    for (const server of [a, b, a, b]) expect((await call(server, 'GET', '/api/me', { cookie: session })).status).toBe(200);
    await expectStatus(200, b, 'POST', '/api/auth/sign-out', { cookie: session, body: {} });
    expect((await call(a, 'GET', '/api/me', { cookie: session })).status).toBe(401);
    expect((await call(a, 'GET', '/api/me', { cookie: owner })).status).toBe(200);
  });

  it('shows on both servers at once an email changed in the users reference table', async () => {
    for (const server of [a, b]) expect((await expectStatus(200, server, 'GET', '/api/me', { cookie: owner })).user).toMatchObject({ email: ownerEmail });
    const renamed = 'renamed-owner@citus.example';
    await coordinator((c) => c.query('update users set email = $1 where email = $2', [renamed, ownerEmail]));
    try {
      for (const server of [a, b]) expect((await expectStatus(200, server, 'GET', '/api/me', { cookie: owner })).user, server.url).toMatchObject({ email: renamed });
    } finally {
      await coordinator((c) => c.query('update users set email = $1 where email = $2', [ownerEmail, renamed]));
    }
  });

  it('applies a role lowered on one server to the next request on the other, and refuses a member removed likewise', async () => {
    const email = 'manager@citus.example';
    await expectStatus(201, a, 'POST', '/api/invitations', { cookie: owner, body: { email, role: 'admin' } });
    const token = (await smtp.waitFor(email)).text.match(/\/invite#([A-Za-z0-9_-]{43})/)![1];
    const joined = await fetch(`${b.url}/api/invitations/join`, {
      method: 'POST',
      headers: { origin: b.url, 'content-type': 'application/json' },
      body: JSON.stringify({ token, name: 'Morgan Manager', password: TEST_PASSWORD }),
    });
    expect(joined.status, await joined.clone().text()).toBe(200);
    const manager = joined.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    // Both servers have read (and keep in memory) the manager's identity, as an admin.
    for (const server of [a, b, a, b]) {
      expect((await expectStatus(200, server, 'GET', '/api/me', { cookie: manager })).role).toBe('admin');
      await expectStatus(200, server, 'GET', '/api/api-keys', { cookie: manager });
    }
    const members = (await expectStatus(200, a, 'GET', '/api/users', { cookie: owner })).members as unknown as { email: string; user_id: string }[];
    const managerId = members.find((m) => m.email === email)!.user_id;

    await expectStatus(204, a, 'PATCH', `/api/users/${managerId}`, { cookie: owner, body: { role: 'member' } });
    expect((await expectStatus(200, b, 'GET', '/api/me', { cookie: manager })).role).toBe('member');
    expect((await call(b, 'GET', '/api/api-keys', { cookie: manager })).status).toBe(403);

    await expectStatus(204, b, 'DELETE', `/api/users/${managerId}`, { cookie: owner });
    expect((await call(a, 'GET', '/api/units', { cookie: manager })).status).toBe(401);
    expect((await call(b, 'GET', '/api/units', { cookie: manager })).status).toBe(401);
  });

  it("counts an API key's requests once for both servers", async () => {
    const key = (await expectStatus(201, a, 'POST', '/api/api-keys', { cookie: owner, body: { name: 'Channel manager', role: 'read_only' } })).key as string;
    const statuses: number[] = [];
    for (let i = 0; i < KEY_REQUESTS_PER_MINUTE; i++) statuses.push((await call(i % 2 === 0 ? a : b, 'GET', '/api/units', { bearer: key })).status);
    expect(statuses).toEqual(Array(KEY_REQUESTS_PER_MINUTE).fill(200));
    expect([(await call(a, 'GET', '/api/units', { bearer: key })).status, (await call(b, 'GET', '/api/units', { bearer: key })).status]).toEqual([429, 429]);
  });

  it('runs a job once: a webhook event is delivered once, though both servers look for due deliveries', async () => {
    await expectStatus(201, a, 'POST', '/api/webhooks', { cookie: owner, body: { url: receiver.url, events: ['stock.counted'] } });
    // A count of the storage (its 40 towels found 38) records the event.
    await expectStatus(200, b, 'POST', `/api/garages/${garageId}/count`, { cookie: owner, body: { lines: [{ item_id: itemId, expected: 40, counted: 38 }] } });
    for (let i = 0; i < 150 && receiver.received.length === 0; i++) await sleep(200);
    // Both servers poll every second: a second delivery would come within a few polls.
    await sleep(4_000);
    const { rows } = await coordinator((c) =>
      c.query<{ status: string; attempts: number; last_error: string | null }>('select status, attempts, last_error from webhook_deliveries where tenant_id = $1', [tenantId]),
    );
    const errors = [a, b].flatMap((s) => s.output().split('\n').filter((line) => /"level":(40|50|60)/.test(line)));
    expect(receiver.received.map((r) => r.type), `deliveries ${JSON.stringify(rows)}; server warnings and errors:\n${errors.join('\n')}`).toEqual(['stock.counted']);
    expect(rows).toEqual([{ status: 'succeeded', attempts: 1, last_error: null }]);
  });

  it('serves a company isolated to a shard of its own, and moved to the other worker, while both servers run', async () => {
    const shardOf = () =>
      coordinator(async (c) => {
        const { rows } = await c.query<{ shard: string; node: string; own: boolean }>(
          `select s.shardid::text as shard, p.nodename || ':' || p.nodeport as node, s.shardminvalue = s.shardmaxvalue as own
           from pg_dist_shard s join pg_dist_shard_placement p using (shardid)
           where s.shardid = get_shard_id_for_distribution_column('items', $1::uuid)`,
          [tenantId],
        );
        return rows[0]!;
      });
    const before = await shardOf();
    expect(before.own).toBe(false);

    // Reads and stock writes on both servers, one after the other on each, until the moves are done.
    let moving = true;
    let quantity = 20;
    const answers: { what: string; status: number; ms: number }[] = [];
    const timed = async (what: string, send: () => Promise<Answer>) => {
      const started = performance.now();
      const { status } = await send();
      answers.push({ what, status, ms: performance.now() - started });
    };
    const load = [a, b].map(async (server) => {
      while (moving) {
        await timed('units', () => call(server, 'GET', '/api/units', { cookie: owner }));
        await timed('replace', () => call(server, 'PUT', `/api/garages/${garageId}/inventory`, { cookie: owner, body: { inventory: [{ item_id: itemId, quantity: (quantity += 1) }] } }));
      }
    });
    await sleep(500);
    const isolating = performance.now();
    await coordinator(async (c) => {
      await c.query('set statement_timeout = 0');
      await c.query(`select isolate_tenant_to_new_shard('items', $1::uuid, 'CASCADE', shard_transfer_mode => 'block_writes')`, [tenantId]);
    });
    const isolateMs = performance.now() - isolating;
    const isolated = await shardOf();
    expect(isolated.own).toBe(true);
    expect(isolated.shard).not.toBe(before.shard);
    const [host, port] = isolated.node.split(':');
    const other = await coordinator(async (c) => {
      const { rows } = await c.query<{ host: string; port: number }>(
        `select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 and noderole = 'primary' and not (nodename = $1 and nodeport = $2)`,
        [host, Number(port)],
      );
      return rows[0]!;
    });
    const moving0 = performance.now();
    await coordinator(async (c) => {
      await c.query('set statement_timeout = 0');
      await c.query(`select citus_move_shard_placement($1::bigint, $2, $3, $4, $5, shard_transfer_mode => 'block_writes')`, [isolated.shard, host, Number(port), other.host, other.port]);
    });
    const moveMs = performance.now() - moving0;
    await sleep(500);
    moving = false;
    await Promise.all(load);
    expect((await shardOf()).node).toBe(`${other.host}:${other.port}`);

    const slowest = Math.max(...answers.map((x) => x.ms));
    console.log(
      `a company isolated to its own shard (${Math.round(isolateMs)} ms) and moved to another worker (${Math.round(moveMs)} ms) ` +
        `while two servers served it: ${answers.length} answers, statuses ${[...new Set(answers.map((x) => x.status))].join(', ')}, slowest ${Math.round(slowest)} ms`,
    );
    expect(answers.length).toBeGreaterThan(4);
    expect(answers.filter((x) => x.status !== 200).map((x) => `${x.what} ${x.status}`)).toEqual([]);
    // The company is served by both servers from its own shard; its stock is its last count.
    for (const server of [a, b]) {
      await expectStatus(200, server, 'GET', '/api/dashboard', { cookie: owner });
      await expectStatus(200, server, 'PUT', `/api/garages/${garageId}/inventory`, { cookie: owner, body: { inventory: [{ item_id: itemId, quantity: 25 }] } });
    }
    const { rows } = await coordinator((c) =>
      c.query<{ quantity: number }>('select quantity from garage_inventory where tenant_id = $1 and garage_id = $2 and item_id = $3', [tenantId, garageId, itemId]),
    );
    expect(rows).toEqual([{ quantity: 25 }]);
  });

  it('stop cleanly', async () => {
    const stopping = servers.splice(0);
    await Promise.all(stopping.map((s) => s.stop()));
  });
});
