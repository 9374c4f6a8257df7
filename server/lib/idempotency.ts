/**
 * `Idempotency-Key` on the stock writes (docs/decisions/047-idempotency-keys.md, after the IETF
 * httpapi draft "The Idempotency-Key HTTP Header Field"). A route opts in with
 * `config.idempotent: true`; its requests may carry the header, and then:
 *
 * - the first request with a key claims it (table `idempotency_keys`, per company) before the
 *   handler runs; a success stores its answer (status and JSON text) under the key; a failure
 *   releases the key, since an error answer has changed nothing and the same request may be sent
 *   again;
 * - a later request of the same company with the key gets the stored answer again, with the
 *   header `Idempotent-Replayed: true`, and writes nothing;
 * - one sent while the first is still being written is refused with 409 IDEMPOTENCY_KEY_IN_USE
 *   and Retry-After (the draft's answer to a concurrent request); a claim left unanswered longer
 *   than ABANDONED_CLAIM_SECONDS (the server stopped between the write and storing its answer) is
 *   refused with 409 CONFLICT, which says to check the stock before sending the change again;
 * - a key sent with another method, path or body is refused with 422 IDEMPOTENCY_KEY_REUSED.
 *
 * Keys are kept at least IDEMPOTENCY_KEEP_HOURS: an older key is claimed afresh, and a claim deletes
 * its company's older keys now and then (idempotency-store.ts).
 * Requests without the header are written as before, with no replay.
 *
 * A route with `config.idempotent: 'in-write'` claims and answers its key inside its write's own
 * transaction instead (the stock commands written together, stock/batched.ts): its handler passes
 * `answerOnce`'s key to the command, which gives it to `writeWithKeys` (idempotency-store.ts).
 * Nothing then runs before or after the handler, and no crash can leave a write without its answer.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { idempotencyHeaders } from '../../common/contracts/idempotency';
import type { Db } from '../db/client';
import { withTenant } from '../db/tenant-tx';
import { batch } from './batch';
import { AppError } from './errors';
import {
  EarlierRequest,
  insertClaims,
  keyRows,
  releaseClaims,
  storeAnswers,
  unansweredRow,
  type KeyClaim,
  type KeyInWrite,
  type KeyRow,
} from './idempotency-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route accepts `Idempotency-Key` (server/lib/idempotency.ts); it needs a tenant access.
     * 'in-write': its command claims and answers the key in its own transaction (`answerOnce`).
     */
    idempotent?: true | 'in-write';
  }
}

/** Seconds after which a claim still without an answer is taken as abandoned by a stopped server. */
export const ABANDONED_CLAIM_SECONDS = 120;

/** The answer header that marks a replay of a stored answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The claim a request holds while its handler runs: its company and key. */
interface Claim {
  tenantId: string;
  key: string;
}

const claims = new WeakMap<FastifyRequest, Claim>();

/** The keys of requests to 'in-write' routes, for their handlers' `answerOnce`. */
const keysInWrite = new WeakMap<FastifyRequest, KeyInWrite>();

/** SHA-256 (hex) of what makes two requests the same: method, path with query, and body. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/** One request's claim: its company, key and fingerprint. */
interface ClaimRequest extends KeyClaim {
  tenantId: string;
}

/** What a request that settles its claim leaves: its answer on success, nothing on failure. */
interface Settlement {
  tenantId: string;
  key: string;
  answer: { status: number; body: string } | null;
}

const inUseMessage = 'This change is still being saved. Try again in a moment.';

/**
 * Claims and answers in transactions of their own are committed without waiting for their WAL
 * flush: the write that follows a claim commits with a flush, which writes every WAL record before
 * its own, the claim's included, so a claim is durable whenever its write is; an answer lost in a
 * crash leaves its claim without one, which turns repeats away (module comment).
 */
const NO_FLUSH = sql`set local synchronous_commit = off`;

/** Claims or settlements of one company sent at the same moment go in one transaction (lib/batch.ts), two at a time. */
const BATCH_LANES = 2;

/**
 * The claims of one company sent together, in one transaction (idempotency-store.ts
 * `insertClaims`). The first request of a key claims it; a later one of the same key in the batch
 * finds it claimed.
 * @returns per request, in order: null when it holds the claim now, else the key's row
 */
async function claimTogether(db: Db, requests: ClaimRequest[]): Promise<(KeyRow | null)[]> {
  const { tenantId } = requests[0]!;
  return withTenant(db, tenantId, async (tx) => {
    await tx.execute(NO_FLUSH);
    const claimed = await insertClaims(tx, tenantId, requests);
    const holds = requests.map((r) => claimed.delete(r.key));
    const rows = await keyRows(
      tx,
      tenantId,
      requests.flatMap((r, i) => (holds[i] ? [] : [r.key])),
    );
    // A key gone since the insert was released by its failed request just then: still in use for
    // this one, which is asked to come back (and will claim it).
    return requests.map((r, i) =>
      holds[i] ? null : (rows.get(r.key) ?? unansweredRow(r)),
    );
  });
}

/** The answers and releases of one company sent together, in one transaction. */
async function settleTogether(db: Db, settlements: Settlement[]): Promise<void[]> {
  const { tenantId } = settlements[0]!;
  await withTenant(db, tenantId, async (tx) => {
    await tx.execute(NO_FLUSH);
    await storeAnswers(
      tx,
      tenantId,
      settlements.flatMap((s) => (s.answer === null ? [] : [{ key: s.key, ...s.answer }])),
    );
    await releaseClaims(
      tx,
      tenantId,
      settlements.filter((s) => s.answer === null).map((s) => s.key),
    );
  });
  return settlements.map(() => undefined);
}

/** Answers the earlier request's stored answer, or refuses (see the module comment). */
function answerFromEarlier(reply: FastifyReply, row: KeyRow, fingerprint: string): FastifyReply {
  if (row.fingerprint !== fingerprint) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request. Send a new key.');
  }
  if (row.status === null) {
    if (row.age_seconds > ABANDONED_CLAIM_SECONDS) {
      throw new AppError('CONFLICT', 'The server stopped while this change was being saved. Check the stock before sending it again.');
    }
    reply.header('retry-after', '1');
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', inUseMessage);
  }
  reply.status(row.status).header(REPLAYED_HEADER, 'true');
  if (!row.body) return reply.send();
  return reply.type('application/json; charset=utf-8').send(row.body);
}

/**
 * Installs the rule on `app` (the root instance, after server/access.ts and before any route):
 * routes with `config.idempotent` get the header in their schema (validated, and listed in the API
 * document with the two refusals), a preHandler that claims or replays, and an onSend hook that
 * settles the claim.
 * @throws Error at registration for an idempotent route without a tenant access.
 */
export function installIdempotency(app: FastifyInstance, db: Db): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const access = route.config.access;
    if (access === undefined || typeof access === 'string') {
      throw new Error(`${route.url}: an idempotent route needs a tenant access (its keys are the company's)`);
    }
    const schema = (route.schema ??= {});
    schema.headers = idempotencyHeaders;
    schema['x-errors'] = [...(schema['x-errors'] ?? []), 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'CONFLICT'];
  });

  const claim = batch((requests: ClaimRequest[]) => claimTogether(db, requests), (r) => r.tenantId, { lanes: BATCH_LANES });
  const settle = batch((settlements: Settlement[]) => settleTogether(db, settlements), (s) => s.tenantId, { lanes: BATCH_LANES });

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = (request.headers as { 'idempotency-key'?: string })['idempotency-key'];
    if (key === undefined) return;
    const { tenantId } = request.who;
    const fingerprint = fingerprintOf(request);
    if (request.routeOptions.config.idempotent === 'in-write') {
      keysInWrite.set(request, { key, fingerprint, serialize: (result) => String(reply.serialize(result)) });
      return;
    }
    const earlier = await claim({ tenantId, key, fingerprint });
    if (earlier === null) {
      claims.set(request, { tenantId, key });
      return;
    }
    return answerFromEarlier(reply, earlier, fingerprint);
  });

  // The answer is stored before it is sent. A failure to store it is logged, not answered: the
  // write is done, and its claim, left without an answer, turns away a repeat of it.
  app.addHook('onSend', async (request, reply, payload) => {
    const held = claims.get(request);
    if (!held) return payload;
    claims.delete(request);
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300;
    const answer = succeeded ? { status: reply.statusCode, body: typeof payload === 'string' ? payload : '' } : null;
    try {
      await settle({ ...held, answer });
    } catch (err) {
      request.log.warn({ err, key: held.key }, 'idempotency key not settled');
    }
    return payload;
  });
}

/**
 * Runs the handler of an 'in-write' route: `write` gets the request's key (undefined without the
 * header) to claim and answer in its transaction (idempotency-store.ts `writeWithKeys`).
 * @returns what `write` returns; or, for a key sent before, that request's answer again (or its
 *   refusal: 409 IDEMPOTENCY_KEY_IN_USE | CONFLICT, 422 IDEMPOTENCY_KEY_REUSED)
 */
export async function answerOnce<R>(
  request: FastifyRequest,
  reply: FastifyReply,
  write: (key: KeyInWrite | undefined) => Promise<R>,
): Promise<R | FastifyReply> {
  const key = keysInWrite.get(request);
  try {
    const result = await write(key);
    // The JSON text stored under the key, sent as is rather than serialized a second time.
    return key?.storedBody === undefined ? result : reply.type('application/json; charset=utf-8').send(key.storedBody);
  } catch (err) {
    if (err instanceof EarlierRequest && key) return answerFromEarlier(reply, err.row, key.fingerprint);
    throw err;
  }
}
