/**
 * Worker-thread side of runLoad (load.ts): a warm-up run, then the measured autocannon run;
 * posts one LoadResult. Latency percentiles are computed from every response time, since
 * autocannon's own summary has no 95th percentile. The requests come from the spec's
 * RequestSource through autocannon's `setupRequest` (and `onResponse` for the alternating
 * kind); the source's state lives for the worker, across the warm-up and the measured run.
 */
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { AlternatingTarget, BenchRequest, LoadResult, LoadSpec, RequestSource } from './load';

const spec = workerData as LoadSpec;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The context autocannon keeps for one request, from its setupRequest to its onResponse. */
interface RequestContext {
  target?: AlternatingTarget & { turn: 0 | 1 };
}

/** What autocannon's request array entry needs to choose each request. */
interface Chooser {
  setupRequest(request: autocannon.Request, context: RequestContext): autocannon.Request;
  onResponse?(status: number, body: string, context: RequestContext): void;
}

/**
 * The request autocannon sends for `chosen`. A POST carries a new Idempotency-Key, as the web app
 * sends with every stock write (docs/decisions/047-idempotency-keys.md), so the measured writes
 * pay for claiming and settling their keys.
 */
const withRequest = (request: autocannon.Request, chosen: BenchRequest): autocannon.Request => ({
  ...request,
  path: chosen.path,
  ...(chosen.body === undefined ? {} : { body: chosen.body }),
  ...(spec.method === 'POST' ? { headers: { ...(request.headers ?? spec.headers), 'idempotency-key': randomUUID() } } : {}),
});

/** Any request of `requests` at random. */
function randomChooser(requests: BenchRequest[]): Chooser {
  return { setupRequest: (request) => withRequest(request, requests[Math.floor(Math.random() * requests.length)]!) };
}

/** `requests` in order, each once (then again from the start). */
function eachOnceChooser(requests: BenchRequest[]): Chooser {
  let next = 0;
  return { setupRequest: (request) => withRequest(request, requests[next++ % requests.length]!) };
}

/**
 * Each target's bodies in turn, one request at a time per target (see RequestSource): idle
 * targets wait in a queue; a target goes back to its end once answered 200, with its turn
 * flipped, and to the set-aside list otherwise.
 */
function alternatingChooser(targets: AlternatingTarget[]): Chooser {
  const idle = targets.map((t) => ({ ...t, turn: 0 as 0 | 1 }));
  const setAside: typeof idle = [];
  return {
    setupRequest(request, context) {
      const target = idle.shift() ?? setAside.shift();
      if (!target) throw new Error('alternating load: every target is in flight; give more targets than connections');
      context.target = target;
      return withRequest(request, { path: target.path, body: target.bodies[target.turn] });
    },
    onResponse(status, _body, context) {
      const target = context.target;
      if (!target) return;
      context.target = undefined;
      if (status === 200) {
        target.turn = target.turn === 0 ? 1 : 0;
        idle.push(target);
      } else {
        setAside.push(target);
      }
    },
  };
}

function chooserFor(source: RequestSource): Chooser {
  switch (source.kind) {
    case 'random':
      return randomChooser(source.requests);
    case 'each-once':
      return eachOnceChooser(source.requests);
    case 'alternating':
      return alternatingChooser(source.targets);
  }
}

const chooser = chooserFor(spec.source);

/** One autocannon run: for `seconds`, or until `requests` responses when given. */
async function run(seconds: number, requests?: number): Promise<Omit<LoadResult, 'warmupResponses' | 'warmupStatuses'>> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.origin,
        connections: spec.connections,
        ...(requests === undefined ? { duration: seconds } : { amount: requests }),
        method: spec.method,
        headers: spec.headers,
        requests: [
          {
            method: spec.method,
            setupRequest: (request, context) => chooser.setupRequest(request, context as RequestContext),
            ...(chooser.onResponse ? { onResponse: (status: number, body: string, context: object) => chooser.onResponse!(status, body, context as RequestContext) } : {}),
          },
        ],
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

/** The warm-up: `warmupRequests` responses when given (0: none), else `warmupSeconds`. */
async function warmUp() {
  if (spec.warmupRequests !== undefined) return spec.warmupRequests > 0 ? run(0, spec.warmupRequests) : null;
  return spec.warmupSeconds > 0 ? run(spec.warmupSeconds) : null;
}

const warmup = await warmUp();
const measured: LoadResult = {
  ...(await run(spec.seconds, spec.measuredRequests)),
  warmupResponses: warmup?.responses ?? 0,
  warmupStatuses: warmup?.statuses ?? {},
};
parentPort!.postMessage(measured);
