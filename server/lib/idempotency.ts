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
 * Keys are kept at least IDEMPOTENCY_KEEP_HOURS; each claim deletes its company's older ones.
 * Requests without the header are written as before, with no replay.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { idempotencyHeaders } from '../../common/contracts/idempotency';
import { IDEMPOTENCY_KEEP_HOURS } from '../../common/idempotency';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { withTenant } from '../db/tenant-tx';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts `Idempotency-Key` (server/lib/idempotency.ts); it needs a tenant access. */
    idempotent?: true;
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

/** SHA-256 (hex) of what makes two requests the same: method, path with query, and body. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/** A key's row as the claim finds it. */
interface KeyRow {
  fingerprint: string;
  status: number | null;
  body: string | null;
  age_seconds: number;
}

/**
 * Claims `key` for the request, or reads what the company's earlier request with it left.
 * @returns null when this request holds the claim now; else the earlier request's row
 */
async function claim(db: Db, tenantId: string, key: string, fingerprint: string): Promise<KeyRow | null> {
  return withTenant(db, tenantId, async (tx) => {
    await tx.execute(NO_FLUSH);
    await tx.execute(
      sql`delete from idempotency_keys where tenant_id = ${tenantId} and created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS})`,
    );
    // A claim being inserted by another request makes this insert wait for its transaction, which
    // commits at once: the row read next is always the other's committed claim.
    const claimed = await queryRows(
      tx,
      sql`insert into idempotency_keys (tenant_id, key, fingerprint) values (${tenantId}, ${key}, ${fingerprint})
          on conflict (tenant_id, key) do nothing returning 1`,
    );
    if (claimed.length > 0) return null;
    const [row] = await queryRows<KeyRow>(
      tx,
      sql`select fingerprint, status, body, extract(epoch from now() - created_at)::float8 as age_seconds
          from idempotency_keys where tenant_id = ${tenantId} and key = ${key}`,
    );
    if (!row) throw new AppError('IDEMPOTENCY_KEY_IN_USE', inUseMessage);
    return row;
  });
}

const inUseMessage = 'This change is still being saved. Try again in a moment.';

/**
 * Claims and answers are committed without waiting for their WAL flush: the write that follows a
 * claim commits with a flush, which writes every WAL record before its own, the claim's included,
 * so a claim is durable whenever its write is; an answer lost in a crash leaves its claim without
 * one, which turns repeats away (module comment). Two flushes fewer per write.
 */
const NO_FLUSH = sql`set local synchronous_commit = off`;

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
 * Stores the answer of a claimed request that succeeded, or releases the claim of one that failed.
 * A failure to store is logged, not answered: the write is done, and the claim, left without an
 * answer, turns away a repeat of it.
 */
async function settle(db: Db, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const held = claims.get(request);
  if (!held) return;
  claims.delete(request);
  const { tenantId, key } = held;
  const succeeded = reply.statusCode >= 200 && reply.statusCode < 300;
  const body = typeof payload === 'string' ? payload : '';
  try {
    await withTenant(db, tenantId, async (tx) => {
      await tx.execute(NO_FLUSH);
      await tx.execute(
        succeeded
          ? sql`update idempotency_keys set status = ${reply.statusCode}, body = ${body} where tenant_id = ${tenantId} and key = ${key}`
          : sql`delete from idempotency_keys where tenant_id = ${tenantId} and key = ${key} and status is null`,
      );
    });
  } catch (err) {
    request.log.warn({ err, key }, 'idempotency key not settled');
  }
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

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = (request.headers as { 'idempotency-key'?: string })['idempotency-key'];
    if (key === undefined) return;
    const { tenantId } = request.who;
    const fingerprint = fingerprintOf(request);
    const earlier = await claim(db, tenantId, key, fingerprint);
    if (earlier === null) {
      claims.set(request, { tenantId, key });
      return;
    }
    return answerFromEarlier(reply, earlier, fingerprint);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    await settle(db, request, reply, payload);
    return payload;
  });
}
