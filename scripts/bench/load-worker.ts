/**
 * Worker-thread side of runLoad (load.ts): a warm-up run, then the measured autocannon run;
 * posts one LoadResult. Latency percentiles are computed from every response time, since
 * autocannon's own summary has no 95th percentile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load';

const spec = workerData as LoadSpec;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One autocannon run: for `seconds`, or until `requests` responses when given. */
async function run(seconds: number, requests?: number): Promise<Omit<LoadResult, 'warmupResponses' | 'warmupStatuses'>> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const pick = () => spec.paths[Math.floor(Math.random() * spec.paths.length)]!;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.origin,
        connections: spec.connections,
        ...(requests === undefined ? { duration: seconds } : { amount: requests }),
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        requests: [{ method: spec.method, setupRequest: (request) => ({ ...request, path: pick() }) }],
      },
      (err, done) => (err ? reject(err as Error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      times.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const sorted = Float64Array.from(times).sort();
  return {
    name: spec.name,
    connections: spec.connections,
    requestsPerSecond: times.length / result.duration,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    responses: times.length,
    errors: result.non2xx + result.errors, // errors include timeouts
    statuses,
  };
}

const warmup = spec.warmupSeconds > 0 ? await run(spec.warmupSeconds) : null;
const measured: LoadResult = {
  ...(await run(spec.seconds, spec.requests)),
  warmupResponses: warmup?.responses ?? 0,
  warmupStatuses: warmup?.statuses ?? {},
};
parentPort!.postMessage(measured);
