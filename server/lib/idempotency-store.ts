/**
 * The table `idempotency_keys` (migration 0042, decision 047): claims, answers and releases of a
 * company's keys inside a transaction its caller opened, and the write that claims and answers its
 * keys in its own transaction (`writeWithKeys`, used by the stock commands written together).
 * server/lib/idempotency.ts puts these behind the routes' `Idempotency-Key`.
 */
import { sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEEP_HOURS } from '../../common/idempotency';
import { pgArray, pgTextArray, queryRows, type Tx } from '../db/client';
import { ConcurrentChange } from '../db/tenant-tx';

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

/**
 * The row a request finds for a key claimed by another request still being written, or released
 * by a refusal just then: no answer yet, so the request is told to come back.
 */
export function unansweredRow(claim: KeyClaim): KeyRow {
  return { key: claim.key, fingerprint: claim.fingerprint, status: null, body: null, age_seconds: 0 };
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

/** Deletes the company's keys older than IDEMPOTENCY_KEEP_HOURS, if this process has not for PURGE_EVERY_MINUTES. */
async function purgeNowAndThen(tx: Tx, tenantId: string): Promise<void> {
  if ((lastPurge.get(tenantId) ?? 0) >= Date.now() - PURGE_EVERY_MINUTES * 60_000) return;
  lastPurge.set(tenantId, Date.now());
  await tx.execute(
    sql`delete from idempotency_keys where tenant_id = ${tenantId} and created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS})`,
  );
}

/**
 * Claims `claims` for `tenantId` in `tx`: each key inserted unless present; a key older than
 * IDEMPOTENCY_KEEP_HOURS is claimed afresh. A key being inserted by another transaction makes
 * this wait for it, so what is found claimed was committed. The company's expired keys are
 * deleted first, at most every PURGE_EVERY_MINUTES per process: kept a little past
 * IDEMPOTENCY_KEEP_HOURS costs nothing, a range scan on every write did.
 * @returns the keys claimed now (a key sent twice is claimed once, for its first fingerprint)
 */
export async function insertClaims(tx: Tx, tenantId: string, claims: readonly KeyClaim[]): Promise<Set<string>> {
  await purgeNowAndThen(tx, tenantId);
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
  /** The JSON text the route sends for `result` (its response schema's serializer). */
  serialize: (result: unknown) => string;
  /** Set by {@link writeWithKeys} once the answer is stored: the JSON text stored, which the route then sends as is. */
  storedBody?: string;
}

/** The HTTP status of a success of the routes that claim their key in their write (all answer 200). */
const IN_WRITE_STATUS = 200;

/** What a request of {@link writeWithKeys} gets when its key was claimed before: the key's row, after this transaction's answers. */
export class EarlierRequest extends Error {
  constructor(readonly row: KeyRow) {
    super(`Idempotency-Key ${row.key} was sent before`);
  }
}

/**
 * Claims, writes and answers in `tx`, for requests whose answer commits with their write:
 * 1. each key of the batch is locked (a transaction-scoped advisory lock, in key order, before any
 *    stock lock): a request with the same key in another batch waits there, holding nothing, and
 *    then finds this one's answer;
 * 2. the keys' rows are read: a key with a row kept less than IDEMPOTENCY_KEEP_HOURS was sent
 *    before (an expired one is deleted and claimed afresh);
 * 3. `write` gets the requests that hold their key or came without one and returns their outcomes;
 * 4. each success's answer, `answerOf(outcome)` serialized, is inserted under its key; a refusal
 *    (`answerOf` throws) leaves no row, so the request may be sent again.
 * The key's row is written once, with its answer: no claim row to update. A key claimed meanwhile
 * by a route that claims before its handler (a client sending one key to two routes at once)
 * makes the transaction run again (ConcurrentChange), and then find it.
 * A request whose key was sent before gets an EarlierRequest instead of an outcome, with the key's
 * row as this transaction leaves it (a key sent twice in the same batch gets the first's answer).
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
  // A transaction run again starts afresh: no body stored by an attempt that rolled back.
  for (const key of keyed) key.storedBody = undefined;
  await purgeNowAndThen(tx, tenantId);
  const keys = pgTextArray([...new Set(keyed.map((k) => k.key))].sort());
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${tenantId}::text || ':idempotency-key:' || k, 0)) from unnest(${keys}::text[]) as k`);
  const found = await queryRows<KeyRow & { expired: boolean }>(
    tx,
    sql`select key, fingerprint, status, body, extract(epoch from now() - created_at)::float8 as age_seconds,
               created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS}) as expired
        from idempotency_keys where tenant_id = ${tenantId} and key = any(${keys}::text[])`,
  );
  const expired = found.filter((r) => r.expired).map((r) => r.key);
  if (expired.length > 0) {
    await tx.execute(sql`delete from idempotency_keys where tenant_id = ${tenantId} and key = any(${pgTextArray(expired)}::text[])`);
  }
  const earlier = new Map(found.filter((r) => !r.expired).map((r) => [r.key, r as KeyRow]));
  const taken = new Set<string>();
  const holds = requests.map((r) => r.key === undefined || (!earlier.has(r.key.key) && !taken.has(r.key.key) && (taken.add(r.key.key), true)));
  const outcomes = await write(requests.filter((_, i) => holds[i]));
  const written = requests.map((_, i) => (holds[i] ? outcomes.shift()! : null));
  const answers = new Map<string, KeyAnswer & { fingerprint: string }>();
  requests.forEach((r, i) => {
    if (!holds[i] || r.key === undefined) return;
    let result: unknown;
    try {
      result = answerOf(written[i]!);
    } catch {
      return;
    }
    answers.set(r.key.key, { key: r.key.key, fingerprint: r.key.fingerprint, status: IN_WRITE_STATUS, body: r.key.serialize(result) });
  });
  if (answers.size > 0) {
    const rows = [...answers.values()];
    const inserted = await queryRows<{ key: string }>(
      tx,
      sql`insert into idempotency_keys (tenant_id, key, fingerprint, status, body)
          select ${tenantId}::uuid, a.key, a.fingerprint, a.status, a.body
          from unnest(${pgTextArray(rows.map((a) => a.key))}::text[], ${pgTextArray(rows.map((a) => a.fingerprint))}::text[],
                      ${pgArray(rows.map((a) => a.status))}::int[], ${pgTextArray(rows.map((a) => a.body))}::text[]) as a(key, fingerprint, status, body)
          on conflict (tenant_id, key) do nothing
          returning key`,
    );
    if (inserted.length < rows.length) throw new ConcurrentChange('an Idempotency-Key was claimed by another request meanwhile');
    // The answer is serialized once: the route sends the text it stored (answerOnce).
    requests.forEach((r, i) => {
      if (holds[i] && r.key && answers.has(r.key.key)) r.key.storedBody = answers.get(r.key.key)!.body;
    });
  }
  return requests.map((r, i) => {
    if (holds[i]) return written[i]!;
    const key = r.key!;
    const answer = answers.get(key.key);
    // Sent twice in this batch: the first's answer, or (refused, no row) still to be sent again.
    const row = earlier.get(key.key) ?? (answer ? { ...unansweredRow(answer), status: answer.status, body: answer.body } : unansweredRow(key));
    return new EarlierRequest(row);
  });
}
