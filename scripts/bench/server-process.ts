/**
 * The server under test as `npm start` runs it: the bundle `npm run build:server` makes, started
 * by the `serve` script's command line in a child process, configured only through its
 * environment (server/config.ts), with its output in a log file. Also the few HTTP calls the benchmarks make to it outside the loads, and the scripts they
 * run before starting it (`scripts/seed-demo.ts`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Longest wait for the server's "is running at" line, in ms (migrations included). */
const BOOT_TIMEOUT_MS = 60_000;
/** Longest wait for a graceful stop after SIGTERM, in ms, before SIGKILL. */
const STOP_TIMEOUT_MS = 15_000;

/** A free loopback TCP port (free when asked; the server binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

/**
 * Runs `node --import tsx <args>` in `cwd` and waits for it.
 * @throws Error with its output when it exits with another code than 0.
 */
export function runNode(cwd: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

/**
 * The arguments of `node` in the package's `serve` script (what `npm start` runs once built), so
 * the server runs with the same flags without an npm process between it and the benchmark.
 * @throws Error when the script is not a plain `node …` command line.
 */
function serveArguments(cwd: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [command, ...rest] = (scripts.serve ?? '').trim().split(/\s+/);
  if (command !== 'node' || rest.some((arg) => /["'$&|;<>]/.test(arg))) throw new Error(`the serve script is not a plain node command: ${scripts.serve}`);
  return rest;
}

/** A running server child process. */
export interface ServerProcess {
  /** Process id of the server (its main thread has the same id). */
  pid: number;
  /** The file that receives its standard output and error. */
  logFile: string;
  /** SIGTERM (main.ts closes the server and the database), SIGKILL if it has not exited in 15 s. */
  stop(): Promise<void>;
}

const tail = (file: string) => readFileSync(file, 'utf8').slice(-4000);

/**
 * Builds the server bundle of the checkout in `cwd` (`npm run build:server`, under a second), then
 * starts it with `env`, its standard output and error
 * appended to `logFile` (written by the child itself, so its logging costs what it costs in
 * production and nothing in this process), and waits until it prints that it is running.
 * @throws Error with the end of the log when it exits or has not started within 60 s.
 */
export async function startServer(args: { cwd: string; env: NodeJS.ProcessEnv; logFile: string }): Promise<ServerProcess> {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: args.cwd, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:server failed (${build.status}):\n${build.stdout}${build.stderr}`);
  const out = openSync(args.logFile, 'a');
  const child = spawn(process.execPath, serveArguments(args.cwd), { cwd: args.cwd, env: args.env, stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  while (!readFileSync(args.logFile, 'utf8').includes('is running at')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${tail(args.logFile)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start in ${BOOT_TIMEOUT_MS / 1000} s:\n${tail(args.logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid!,
    logFile: args.logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Signs in through `POST /api/auth/sign-in/email` of the server at `url` (its APP_URL, sent as
 * the Origin the server's origin guard expects).
 * @returns the Cookie header of the new session.
 * @throws Error when the sign-in is not answered 200.
 */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}
