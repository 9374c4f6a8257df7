/**
 * Runs one autocannon load in a worker thread, so the load generator's own work stays off the
 * benchmark's main thread, which keeps reading /proc and the database between loads (the server
 * under test is a child process). Two loads may run at once, each in its own worker.
 */
import { Worker } from 'node:worker_threads';

/** One request of a load: its path and, for a POST, its JSON body. */
export interface BenchRequest {
  path: string;
  body?: string;
}

/** A path whose two bodies are sent in turn: the second undoes what the first did, and so on. */
export interface AlternatingTarget {
  path: string;
  bodies: [string, string];
}

/**
 * How a load chooses each of its requests (autocannon's `setupRequest`, in the worker):
 * - `random`: any of `requests` at random, as often as the load lasts;
 * - `each-once`: `requests` in their order, each sent once over the warm-up and the measured run
 *   together (a load of a fixed number of requests: `warmupRequests` + `measuredRequests` at most
 *   `requests.length`; past the end it starts over);
 * - `alternating`: the next idle target, with the body after the one last answered 200, so a
 *   request valid only in the state the previous one left (a count's expected quantities) stays
 *   valid. A target is never asked twice at once; one answered anything but 200 (and the ones
 *   cut off when a run ends) is set aside, and used again only when no other target is idle.
 *   Give more targets than connections.
 */
export type RequestSource =
  | { kind: 'random'; requests: BenchRequest[] }
  | { kind: 'each-once'; requests: BenchRequest[] }
  | { kind: 'alternating'; targets: AlternatingTarget[] };

export interface LoadSpec {
  /** Label in the results table. */
  name: string;
  /** Origin of the server, e.g. http://127.0.0.1:40123. */
  origin: string;
  method: 'GET' | 'POST';
  /** The requests to send (paths and bodies). */
  source: RequestSource;
  /** Headers of every request (the sign-in cookie, the content-type of the bodies, the origin). */
  headers?: Record<string, string>;
  connections: number;
  /** Seconds of load before measuring (results discarded). */
  warmupSeconds: number;
  /** When set, the warm-up ends after this many responses instead (0: no warm-up). */
  warmupRequests?: number;
  /** Seconds measured. */
  seconds: number;
  /** When set, the measured run ends after this many responses instead of after `seconds`. */
  measuredRequests?: number;
}

export interface LoadResult {
  name: string;
  connections: number;
  /** Completed responses per second over the measured run. */
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds, over every response of the measured run. */
  p50: number;
  p95: number;
  p99: number;
  responses: number;
  /** Responses during the warm-up (not measured). */
  warmupResponses: number;
  /** Responses during the warm-up by HTTP status. */
  warmupStatuses: Record<string, number>;
  /** Non-2xx responses, connection errors and timeouts. */
  errors: number;
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
}

const workerFile = new URL('./load-worker.ts', import.meta.url).href;

/**
 * Runs `spec` and resolves with its measured figures.
 * @throws Error when the worker fails (e.g. autocannon cannot reach the server).
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  // Worker threads do not inherit the TypeScript loader of `node --import tsx`: register it
  // in the worker before importing the worker module.
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
await import(${JSON.stringify(workerFile)});`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData: spec });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0 && code !== 1) reject(new Error(`load worker exited with ${code}`));
    });
  });
}
