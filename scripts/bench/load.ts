/**
 * Runs one autocannon load in a worker thread, so the load generator's own work stays off the
 * benchmark's main thread, which keeps reading /proc and the database between loads (the server
 * under test is a child process). Two loads may run at once, each in its own worker.
 */
import { Worker } from 'node:worker_threads';

export interface LoadSpec {
  /** Label in the results table. */
  name: string;
  /** Origin of the server, e.g. http://127.0.0.1:40123. */
  origin: string;
  method: 'GET' | 'POST';
  /** Paths to request; each request picks one at random. */
  paths: string[];
  headers?: Record<string, string>;
  /** Request body sent with every request (e.g. JSON, with its content-type in `headers`). */
  body?: string;
  connections: number;
  /** Seconds of load before measuring (results discarded). */
  warmupSeconds: number;
  /** Seconds measured. */
  seconds: number;
  /** When set, the measured run ends after this many responses instead of after `seconds`. */
  requests?: number;
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
