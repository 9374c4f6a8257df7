/**
 * The table `idempotency_keys` (migration 0042, decision 047): claims, answers and releases of a
 * company's keys inside a transaction its caller opened, and the write that claims and answers its
 * keys in its own transaction (`writeWithKeys`, used by the stock commands written together).
 * server/lib/idempotency.ts puts these behind the routes' `Idempotency-Key`.
 */
import { sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEEP_HOURS } from '../../common/idempotency';
import { pgArray, pgTextArray, queryRows, type Tx } from '../db/client';

/** A key's row as a later request finds it: its fingerprint, and its answer once stored. */
export interface KeyRow {
  key: string;
  fingerprint: string;
  status: number | null;
  body: string | null;
  age_seconds: number;
}

/** A request's key and the SHA-256 (hex) of its method, path and body. */
export interface KeyClaim {
  key: string;
  fingerprint: string;
}

/** A stored answer: its HTTP status and JSON text (empty for none). */
export interface KeyAnswer {
  key: string;
  status: number;
  body: string;
}

/** Minutes between two deletions of a company's expired keys by this process. */
const PURGE_EVERY_MINUTES = 10;

/** When this process last deleted each company's expired keys (ms since 1970). */
const lastPurge = new Map<string, number>();

/**
 * Claims `claims` for `tenantId` in `tx`: each key inserted unless present; a key older than
 * IDEMPOTENCY_KEEP_HOURS is claimed afresh. A key being inserted by another transaction makes
 * this wait for it, so what is found claimed was committed. The company's expired keys are
 * deleted first, at most every PURGE_EVERY_MINUTES per process: kept a little past
 * IDEMPOTENCY_KEEP_HOURS costs nothing, a range scan on every write did.
 * @returns the keys claimed now (a key sent twice is claimed once, for its first fingerprint)
 */
export async function insertClaims(tx: Tx, tenantId: string, claims: readonly KeyClaim[]): Promise<Set<string>> {
  if ((lastPurge.get(tenantId) ?? 0) < Date.now() - PURGE_EVERY_MINUTES * 60_000) {
    lastPurge.set(tenantId, Date.now());
    await tx.execute(
      sql`delete from idempotency_keys where tenant_id = ${tenantId} and created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS})`,
    );
  }
  // Each key once, for its first fingerprint, in key order: two transactions claiming some of
  // the same keys then wait on each other in the same order and cannot deadlock.
  const first = new Map<string, string>();
  for (const c of claims) if (!first.has(c.key)) first.set(c.key, c.fingerprint);
  const keys = [...first.keys()].sort();
  const inserted = await queryRows<{ key: string }>(
    tx,
    sql`insert into idempotency_keys (tenant_id, key, fingerprint)
        select ${tenantId}::uuid, k.key, k.fingerprint
        from unnest(${pgTextArray(keys)}::text[], ${pgTextArray(keys.map((k) => first.get(k)!))}::text[]) as k(key, fingerprint)
        on conflict (tenant_id, key) do update set fingerprint = excluded.fingerprint, status = null, body = null, created_at = now()
        where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS})
        returning key`,
  );
  return new Set(inserted.map((r) => r.key));
}

/** The rows of `keys` (a key not found is absent from the map). */
export async function keyRows(tx: Tx, tenantId: string, keys: readonly string[]): Promise<Map<string, KeyRow>> {
  if (keys.length === 0) return new Map();
  const rows = await queryRows<KeyRow>(
    tx,
    sql`select key, fingerprint, status, body, extract(epoch from now() - created_at)::float8 as age_seconds
        from idempotency_keys where tenant_id = ${tenantId} and key = any(${pgTextArray(keys)}::text[])`,
  );
  return new Map(rows.map((r) => [r.key, r]));
}

/**
 * Stores `answers` under their claimed keys, by one statement: each key found by the primary
 * key (`= any`), its body picked from the array by its position.
 */
export async function storeAnswers(tx: Tx, tenantId: string, answers: readonly KeyAnswer[]): Promise<void> {
  if (answers.length === 0) return;
  const keys = pgTextArray(answers.map((a) => a.key));
  await tx.execute(
    sql`update idempotency_keys set
          status = (${pgArray(answers.map((a) => a.status))}::int[])[array_position(${keys}::text[], key)],
          body = (${pgTextArray(answers.map((a) => a.body))}::text[])[array_position(${keys}::text[], key)]
        where tenant_id = ${tenantId} and key = any(${keys}::text[])`,
  );
}

/** Deletes the claims of `keys` still without an answer: their requests failed and changed nothing. */
export async function releaseClaims(tx: Tx, tenantId: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`delete from idempotency_keys where tenant_id = ${tenantId} and status is null and key = any(${pgTextArray(keys)}::text[])`);
}

/** A key a write claims and answers in its own transaction: the request's claim and the route's JSON of a success. */
export interface KeyInWrite extends KeyClaim {
  /** The HTTP status of a success. */
  status: number;
  /** The JSON text the route sends for `result` (its response schema's serializer). */
  serialize: (result: unknown) => string;
}

/** What a request of {@link writeWithKeys} gets when its key was claimed before: the key's row, after this transaction's answers. */
export class EarlierRequest extends Error {
  constructor(readonly row: KeyRow) {
    super(`Idempotency-Key ${row.key} was sent before`);
  }
}

/**
 * Claims, writes and answers in `tx`: the requests' keys are claimed first (insertClaims, before
 * any stock lock, so a wait for another transaction's key holds no lock); `write` gets the requests
 * that hold their key or came without one and returns their outcomes; each claimed key then stores
 * the answer `answerOf(outcome)` serializes, or is released when `answerOf` throws (a refusal
 * writes nothing, so the request may be sent again). A request whose key was claimed before gets
 * an EarlierRequest instead of an outcome, carrying the key's row as this transaction leaves it (a
 * key sent twice in the same batch finds the first one's answer).
 * @returns per request, in order: its outcome, or an EarlierRequest
 */
export async function writeWithKeys<I extends { key?: KeyInWrite }, O>(
  tx: Tx,
  tenantId: string,
  requests: readonly I[],
  write: (requests: I[]) => Promise<O[]>,
  answerOf: (outcome: O) => unknown,
): Promise<(O | EarlierRequest)[]> {
  const keyed = requests.flatMap((r) => (r.key ? [r.key] : []));
  if (keyed.length === 0) return write([...requests]);
  const claimed = await insertClaims(tx, tenantId, keyed);
  const holds = requests.map((r) => r.key === undefined || claimed.delete(r.key.key));
  const outcomes = await write(requests.filter((_, i) => holds[i]));
  const answers: KeyAnswer[] = [];
  const released: string[] = [];
  const written = requests.map((_, i) => (holds[i] ? outcomes.shift()! : null));
  requests.forEach((r, i) => {
    if (!holds[i] || r.key === undefined) return;
    let result: unknown;
    try {
      result = answerOf(written[i]!);
    } catch {
      released.push(r.key.key);
      return;
    }
    answers.push({ key: r.key.key, status: r.key.status, body: r.key.serialize(result) });
  });
  await storeAnswers(tx, tenantId, answers);
  await releaseClaims(tx, tenantId, released);
  const earlier = await keyRows(
    tx,
    tenantId,
    requests.flatMap((r, i) => (holds[i] ? [] : [r.key!.key])),
  );
  return requests.map((r, i) =>
    holds[i]
      ? written[i]!
      : new EarlierRequest(earlier.get(r.key!.key) ?? { key: r.key!.key, fingerprint: r.key!.fingerprint, status: null, body: null, age_seconds: 0 }),
  );
}
