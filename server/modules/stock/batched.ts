/**
 * Stock commands written together per company (docs/decisions/038-stock-commands.md): the phone's
 * taps — plus as transfers, minus as consumptions — that a company's people send while one of its
 * batches is being written wait and go together into the next one, one transaction and one SQL
 * call for all (lib/batch.ts). A request that finds nothing in progress starts at once. Each
 * request gets the outcome it would have had alone in its arrival order; `npm run bench` measured
 * the batching worth keeping (docs/performance-history.md "Stock commands: the requests the web sends").
 */
import type { Db, Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { batch } from '../../lib/batch';
import { EarlierRequest, writeWithKeys, type KeyInWrite } from '../../lib/idempotency-store';

/** A request of a batched command: its company, and what the command needs. */
export interface TenantRequest {
  tenantId: string;
}

/** A request of a command that claims its `Idempotency-Key` in its write (server/lib/idempotency.ts 'in-write'). */
export interface KeyedRequest extends TenantRequest {
  key?: KeyInWrite;
}

/**
 * A command whose concurrent requests of one company are written together: `write` receives them
 * in arrival order inside one tenant transaction and returns one outcome per request, in order.
 * With `answerOf` (the command's answer to an outcome, throwing its refusal), the requests' keys
 * are claimed and answered in that transaction (idempotency-store.ts `writeWithKeys`), and a
 * request whose key was sent before rejects with its EarlierRequest.
 * Two batches of a company may run at once (while one waits on the database the next is being
 * collected); they cannot deadlock because every write takes its locks in the order of
 * docs/decisions/009-ledger-lock-order.md. A batch that fails (a database error that outlasts the
 * transaction's retries) fails each of its requests with that error.
 * @returns the function that sends one request on a database and resolves to its outcome.
 */
export function batchedPerTenant<I extends KeyedRequest, O>(
  write: (tx: Tx, tenantId: string, requests: I[]) => Promise<O[]>,
  answerOf?: (outcome: O) => unknown,
) {
  const writeTogether = (tx: Tx, tenantId: string, requests: I[]): Promise<(O | EarlierRequest)[]> =>
    answerOf ? writeWithKeys(tx, tenantId, requests, (held) => write(tx, tenantId, held), answerOf) : write(tx, tenantId, requests);
  const queues = new WeakMap<Db, (request: I) => Promise<O | EarlierRequest>>();
  return async (db: Db, request: I): Promise<O> => {
    let queue = queues.get(db);
    if (!queue) {
      queue = batch((requests: I[]) => withTenant(db, requests[0]!.tenantId, (tx) => writeTogether(tx, requests[0]!.tenantId, requests)), (r) => r.tenantId, {
        lanes: 2,
      });
      queues.set(db, queue);
    }
    const outcome = await queue(request);
    if (outcome instanceof EarlierRequest) throw outcome;
    return outcome;
  };
}

/** What a request of {@link batchedOncePer} gets when its key is already in the batch. */
const AGAIN = Symbol('again');

/**
 * As {@link batchedPerTenant}, with at most one request of each `keyOf` (a unit) in a batch: a
 * later request of a key already in the batch is sent again and goes into a later one, so it is
 * written after the first committed and finds what that left, instead of locking the same rows
 * again after later steps of the lock order. With `answerOf`, as batchedPerTenant's: a request
 * sent again stores no answer in this batch (its Idempotency-Key is claimed by the batch that
 * writes it).
 */
export function batchedOncePer<I extends KeyedRequest, O>(
  keyOf: (request: I) => string,
  write: (tx: Tx, tenantId: string, requests: I[]) => Promise<O[]>,
  answerOf?: (outcome: O) => unknown,
) {
  const send = batchedPerTenant(
    async (tx, tenantId, requests: I[]): Promise<(O | typeof AGAIN)[]> => {
      const keys = new Set<string>();
      const first = requests.map((r) => (keys.has(keyOf(r)) ? false : (keys.add(keyOf(r)), true)));
      const written = await write(tx, tenantId, requests.filter((_, k) => first[k]));
      return first.map((isFirst) => (isFirst ? written.shift()! : AGAIN));
    },
    answerOf &&
      ((outcome: O | typeof AGAIN) => {
        // Thrown like a refusal: writeWithKeys stores no answer for it.
        if (outcome === AGAIN) throw new Error('sent again in a later batch');
        return answerOf(outcome);
      }),
  );
  return async (db: Db, request: I): Promise<O> => {
    for (;;) {
      const outcome = await send(db, request);
      if (outcome !== AGAIN) return outcome;
    }
  };
}
