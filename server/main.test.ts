/**
 * The server as it ships writes nothing but JSON lines (lib/request-log.ts): a boot on the
 * embedded database with a misspelt variable, requests, a second server refused by the data
 * directory's lock, a shutdown, and a boot refused by its configuration. Runs
 * `node --import tsx server/main.ts` as a child process, as the e2e tests do.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** Longest wait for a boot (migrations of a new embedded database included), in ms. */
const BOOT_MS = 90_000;

interface Run {
  /** Standard output so far. */
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}

/** Starts the server with only `env` (and PATH) in its environment. */
function run(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { stdout: () => stdout, stderr: () => stderr, exited, kill: (signal) => child.kill(signal) };
}

/** Every line of `output`, parsed; a line that is not a JSON object fails the test, naming it. */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
      expect(parsed, line).toBeTypeOf('object');
      return parsed as Record<string, unknown>;
    });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('the server log as shipped', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'server-log-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is JSON lines only, from the first warning to the last shutdown step', { timeout: BOOT_MS + 60_000 }, async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', APP_URL: origin };
    const server = run({ ...env, DATABSE_URL: 'postgres://127.0.0.1/inventory' });
    try {
      const deadline = Date.now() + BOOT_MS;
      while (!server.stdout().includes('is running at')) {
        if (Date.now() > deadline) throw new Error(`the server did not start:\n${server.stdout()}${server.stderr()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await fetch(`${origin}/api/health`)).status).toBe(200);
      expect((await fetch(`${origin}/api/ready`)).status).toBe(200);
      expect((await fetch(`${origin}/api/nothing-here?x=1`)).status).toBe(404);
      expect((await fetch(`${origin}/api/auth/verify-email?token=not-a-token&callbackURL=/`, { redirect: 'manual' })).status).toBe(302);
      const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ email: 'json@example.com', password: 'linen-closet-42', name: 'Jay' }),
      });
      expect(signUp.status).toBe(200);

      // A second server on the same data directory is refused by its lock, with one log line.
      const second = run({ ...env, PORT: String(await freePort()) });
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toBe('');
      expect(jsonLines(second.stdout()).filter((l) => l.level === 60)).toHaveLength(1);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);

    expect(server.stderr()).toBe('');
    const lines = jsonLines(server.stdout());
    expect(lines[0]).toMatchObject({ level: 40, variable: 'DATABSE_URL', meant: 'DATABASE_URL', msg: expect.stringContaining('embedded database') });
    expect(lines.find((l) => String(l.msg).includes('is running at'))).toMatchObject({ level: 30, url: origin, database: 'pglite' });
    expect(lines.filter((l) => l.msg === 'request')).toHaveLength(5);
    expect(lines.at(-1)!.msg).toMatch(/^shutdown: database closed in \d+ ms$/);
  });

  it('refuses a bad configuration with one fatal JSON line', { timeout: 60_000 }, async () => {
    const server = run({ DATA_DIR: dataDir, TRIAL_DAYS: 'many' });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toBe('');
    expect(jsonLines(server.stdout())).toEqual([expect.objectContaining({ level: 60, msg: expect.stringMatching(/^Invalid configuration:\n {2}TRIAL_DAYS: /) })]);
  });
});
