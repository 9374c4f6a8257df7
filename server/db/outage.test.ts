/**
 * A PostgreSQL outage under a write load (decision 010), end to end: a private PostgreSQL cluster
 * started here (initdb and pg_ctl, as the `postgres` OS user when running as root, on a free port
 * in a temporary directory), the real server as a child process on it, plus and minus presses
 * from several clients, then a fast shutdown (which ends every connection, as a restart does),
 * 1.5 s down, and a start. The server process must stay alive, answer every request during the
 * outage with 503 UNAVAILABLE, Retry-After and the standard body (never a refused socket or a
 * 500), and serve again by itself once PostgreSQL accepts connections; the recovery time is
 * printed. Runs when DATABASE_URL is set (where PostgreSQL is installed); ~20 s.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS } from '../lib/db-errors';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const execFileAsync = promisify(execFile);

/** A free TCP port on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The newest installed PostgreSQL's binaries (Debian layout), e.g. /usr/lib/postgresql/16/bin. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL binaries under ${base}`);
  return join(base, newest, 'bin');
}

/** A throwaway PostgreSQL cluster in its own directory, on its own port. */
class PrivateCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'inv-outage-'));
  readonly data = join(this.dir, 'data');
  private readonly bin = postgresBin();
  private readonly asRoot = process.getuid?.() === 0;

  constructor(readonly port: number) {
    // PostgreSQL refuses to run as root: the cluster belongs to the `postgres` OS user then.
    if (this.asRoot) {
      const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
      chownSync(this.dir, uid!, gid!);
    }
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Runs a PostgreSQL tool as the cluster's owner, without blocking the event loop (the load goes on). */
  private async run(tool: string, args: string[]): Promise<void> {
    const command = [join(this.bin, tool), ...args];
    if (this.asRoot) {
      const quoted = command.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
      await execFileAsync('su', ['postgres', '-c', quoted], { timeout: 60_000 });
    } else {
      await execFileAsync(command[0]!, command.slice(1), { timeout: 60_000 });
    }
  }

  init(): Promise<void> {
    return this.run('initdb', ['-D', this.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
  }

  start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
    return this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'log'), '-w', '-t', '30', 'start']);
  }

  /** Fast shutdown: ends every session (57P01) and the postmaster, as `pg_ctl restart -m fast` does first. */
  stopFast(): Promise<void> {
    return this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  }

  /** Resolves with the instant (performance.now) a connection first succeeds, polling every 10 ms. */
  async acceptingSince(): Promise<number> {
    for (;;) {
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => {});
      const ok = await client.connect().then(
        () => true,
        () => false,
      );
      const at = performance.now();
      await client.end().catch(() => {});
      if (ok) return at;
      await sleep(10);
    }
  }

  async destroy(): Promise<void> {
    // Already stopped, or never started: nothing to stop.
    await this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One request of the load: when it started and ended (ms, performance.now) and what came back. */
interface Outcome {
  started: number;
  ended: number;
  status: number | 'socket error';
  retryAfter: string | null;
  body: string;
}

describe.skipIf(!inject('pgTemplateUrl'))('the server through a PostgreSQL outage (private cluster, child process)', () => {
  let cluster: PrivateCluster;
  let server: ChildProcess;
  let exited: { code: number | null; signal: string | null } | null = null;
  let output = '';
  let origin = '';
  let cookie = '';
  let pressPaths: string[] = [];

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${origin}${path}`, {
      method,
      headers: { origin, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** The answer to one request, or 'socket error' when the server could not be reached. */
  async function attempt(method: string, path: string, body?: unknown): Promise<Omit<Outcome, 'started' | 'ended'>> {
    return call(method, path, body).then(
      async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() }),
      () => ({ status: 'socket error' as const, retryAfter: null, body: '' }),
    );
  }

  async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await call(method, path, body);
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  beforeAll(async () => {
    cluster = new PrivateCluster(await freePort());
    await cluster.init();
    await cluster.start();

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: cluster.url,
        APP_SECRET: randomBytes(32).toString('base64url'),
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: origin,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.once('exit', (code, signal) => (exited = { code, signal }));
    for (let i = 0; ; i++) {
      if (exited) throw new Error(`the server exited at boot:\n${output}`);
      const up = await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 300) throw new Error(`the server did not start:\n${output}`);
      await sleep(100);
    }

    // An owner with a garage stocked for the presses; the email is confirmed in the database.
    const email = 'owner@outage.example';
    const password = randomBytes(12).toString('base64url');
    await ok('POST', '/api/auth/sign-up/email', { email, password, name: 'Outage Owner' });
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('update users set email_verified = true where email = $1', [email]);
    await admin.end();
    const signIn = await call('POST', '/api/auth/sign-in/email', { email, password });
    if (!signIn.ok) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
    cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    await ok('POST', '/api/onboarding/company', { company_name: 'Outage Rentals' });
    await ok('POST', '/api/onboarding/items', {
      items: [
        { name: 'Bath Towel', category: 'Linen' },
        { name: 'Coffee Pods', category: 'Kitchen' },
      ],
    });
    await ok('POST', '/api/onboarding/garage', { name: 'Main Storage', address: '1 Depot Road' });
    await ok('POST', '/api/onboarding/units', { units: [{ name: 'Beach House', address: '2 Shore Lane' }] });
    const items = await ok<{ id: string }[]>('GET', '/api/items');
    const [garage] = await ok<{ id: string }[]>('GET', '/api/garages');
    const [unit] = await ok<{ id: string }[]>('GET', '/api/units');
    await ok('PUT', `/api/garages/${garage!.id}/inventory`, { inventory: items.map((i) => ({ item_id: i.id, quantity: 100_000 })) });
    pressPaths = items.flatMap((i) => ['transfer', 'consume'].map((press) => `/api/units/${unit!.id}/inventory/${i.id}/${press}`));
  }, 120_000);

  afterAll(async () => {
    if (server && !exited) server.kill('SIGTERM');
    await cluster?.destroy();
  });

  it('stays up, answers 503 UNAVAILABLE with Retry-After during the outage, and serves again without a restart', async () => {
    const outcomes: Outcome[] = [];
    let stopLoad = false;
    const client = async (n: number) => {
      for (let i = n; !stopLoad; i++) {
        const started = performance.now();
        const outcome = await attempt('POST', pressPaths[i % pressPaths.length]!, { quantity: 1 });
        outcomes.push({ started, ended: performance.now(), ...outcome });
        // Pace the clients while the database is down: an outage answers in a millisecond.
        if (outcome.status !== 200) await sleep(10);
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, n) => client(n)));

    await sleep(1_000);
    const outageStart = performance.now();
    await cluster.stopFast();
    const stopped = performance.now();
    const duringOutage = {
      health: (await attempt('GET', '/api/health')).status,
      ready: await attempt('GET', '/api/ready'),
      me: await attempt('GET', '/api/me'),
    };
    await sleep(1_500);
    const restarting = performance.now();
    const started = cluster.start();
    const accepting = await cluster.acceptingSince();
    await started;
    let firstServed: number | null = null;
    while (performance.now() - accepting < 15_000 && !exited) {
      firstServed = outcomes.find((o) => o.started >= stopped && o.status === 200)?.ended ?? null;
      if (firstServed !== null) break;
      await sleep(20);
    }
    await sleep(500);
    stopLoad = true;
    await load;

    const recoverySeconds = firstServed === null ? null : Math.max(0, firstServed - accepting) / 1000;
    const byStatus = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
    console.log(
      `PostgreSQL outage: down ${((accepting - outageStart) / 1000).toFixed(2)} s (fast shutdown, 1.5 s, start); ` +
        `recovery ${recoverySeconds === null ? 'none' : `${recoverySeconds.toFixed(3)} s`} from PostgreSQL accepting connections to the first 200 press; ` +
        `responses ${JSON.stringify(byStatus)}`,
    );

    expect(exited, output.slice(-2_000)).toBeNull();
    // Every answer is a success or the standard 503: no refused socket, no 500, nothing else.
    const failures = outcomes.filter((o) => o.status !== 200);
    expect(failures.length).toBeGreaterThan(0);
    for (const o of failures) {
      expect(o.status).toBe(503);
      expect(o.retryAfter).toBe(String(RETRY_AFTER_SECONDS));
      expect(JSON.parse(o.body)).toEqual({ error: { code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } });
    }
    // Requests sent while PostgreSQL was down all failed that way.
    const down = outcomes.filter((o) => o.started >= stopped && o.ended <= restarting);
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((o) => o.status === 503)).toBe(true);
    const unavailable = { status: 503, retryAfter: String(RETRY_AFTER_SECONDS), body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE } }) };
    expect(duringOutage).toEqual({ health: 200, ready: unavailable, me: unavailable });

    // Service resumes by itself within seconds.
    expect(recoverySeconds).not.toBeNull();
    expect(recoverySeconds!).toBeLessThan(5);
    expect(outcomes.filter((o) => o.started > firstServed!).every((o) => o.status === 200)).toBe(true);
    expect((await call('GET', '/api/ready')).status).toBe(200);
    expect((await call('GET', '/api/me')).status).toBe(200);
    // No log line carries a whole query's parameters: pino writes one JSON line per entry.
    expect(Math.max(...output.split('\n').map((line) => line.length))).toBeLessThan(20_000);
  }, 60_000);
});
