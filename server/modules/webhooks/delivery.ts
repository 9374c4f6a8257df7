/**
 * Sending webhook deliveries (docs/product.md "Webhooks", docs/decisions/050-webhooks.md): at least
 * once, each attempt signed with the event's constant `webhook-id` so a receiver deduplicates.
 *
 * - Claim: a sender looks for due deliveries across companies (the server's login, policy
 *   `server_login`, migration 0044), then claims them within each company's transaction with
 *   FOR UPDATE SKIP LOCKED, counting the attempt and taking a lease (`lease_until`) that it
 *   commits before any HTTP call. No other sender — another server, or this one restarted —
 *   takes a delivery while its lease holds; a sender that died mid-attempt leaves its lease to
 *   run out, and the delivery is then due again (the attempt is counted, the receiver may have
 *   got it: at least once).
 * - Attempt: integrations/webhook-post.ts, within WebhookDeps' time limit; the lease lasts longer.
 * - Outcome: written only while the sender still holds the lease (`lease_until` unchanged), so a
 *   late sender never overwrites a newer attempt. 2xx: succeeded. Otherwise the next attempt is
 *   due after RETRY_DELAYS_MS[attempts - 1]; after the last, the delivery has failed.
 * - An endpoint whose attempts all failed for ENDPOINT_FAILING_DAYS since `failing_since` is
 *   disabled ('Failing for 3 days'), its pending deliveries fail, and its company's admins and
 *   owners get an email.
 */
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import type { Mailer } from '../../integrations/mail';
import { postWebhook, type AttemptOutcome, type WebhookPostOptions } from '../../integrations/webhook-post';
import type { SecretBox } from '../../lib/secret-box';
import { endpointDisabledMail } from './mail';
import { peopleByIds } from '../auth/people';

/**
 * Pauses before each retry, in milliseconds, after attempt 1, 2, ...: 5 seconds, 5 minutes,
 * 30 minutes, 2, 5, 10 and 10 hours (the Standard Webhooks reference schedule): 8 attempts over
 * about 28 hours, then the delivery has failed.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** Days of failed attempts, without a success, after which an endpoint is disabled. */
export const ENDPOINT_FAILING_DAYS = 3;

/** The reason shown for an endpoint disabled by its failures. */
export const FAILING_REASON = `Failing for ${ENDPOINT_FAILING_DAYS} days`;

/** Deliveries claimed per company transaction and per look across companies. */
const CLAIM_BATCH = 20;

/** Attempts sent at once by one sender. */
const PARALLEL_ATTEMPTS = 5;

/** Days events (and their deliveries) are kept. */
export const EVENT_RETENTION_DAYS = 30;

export interface WebhookDeps {
  db: Db;
  /** Opens the endpoints' sealed secrets (purpose 'webhook-secrets'). */
  box: SecretBox;
  mailer: Mailer;
  appUrl: string;
  /** The clock of due times, leases and `webhook-timestamp`. */
  now: () => Date;
  /** The attempt's time limit, answer size limit and address guard. */
  post: WebhookPostOptions;
}

/** A delivery its sender holds: what to send, and the lease that fences its outcome. */
export interface ClaimedDelivery {
  tenantId: string;
  id: string;
  endpointId: string;
  eventId: string;
  /** Attempts including this one. */
  attempts: number;
  leaseUntil: Date;
  url: string;
  secretEnc: string;
  type: string;
  data: Record<string, unknown>;
  /** When the event happened. */
  eventAt: Date;
}

/** How long a claim holds a delivery: longer than any attempt may take. */
export const leaseMs = (post: WebhookPostOptions) => post.timeoutMs + 30_000;

/** When the attempt after `attempts` attempts is due from `at`, or null when none is left. */
export function nextAttemptAt(attempts: number, at: Date): Date | null {
  const pause = RETRY_DELAYS_MS[attempts - 1];
  return pause === undefined ? null : new Date(at.getTime() + pause);
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

interface ClaimRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_enc: string;
  type: string;
  data: Record<string, unknown> | string;
  event_at: string | Date;
}

const claimedFrom = (tenantId: string, leaseUntil: Date) => (r: ClaimRow): ClaimedDelivery => ({
  tenantId,
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  attempts: r.attempts,
  leaseUntil,
  url: r.url,
  secretEnc: r.secret_enc,
  type: r.type,
  data: typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data,
  eventAt: new Date(r.event_at),
});

/**
 * Claims, in the company's transaction `tx`, those of `deliveryIds` that are `due` (pending, due
 * by `now`, lease free, endpoint enabled), skipping rows another transaction holds: counts the
 * attempt and sets the lease. `due: false` claims them whatever their status and due time (a
 * Resend), still only when their lease is free and their endpoint enabled.
 */
export async function claimInTenant(tx: Tx, tenantId: string, deliveryIds: string[], now: Date, lease: number, due = true): Promise<ClaimedDelivery[]> {
  const leaseUntil = new Date(now.getTime() + lease);
  const rows = await queryRows<ClaimRow>(
    tx,
    sql`with c as (
          select d.id from webhook_deliveries d
          where d.tenant_id = ${tenantId} and d.id = any(${pgArray(deliveryIds)}::uuid[])
            and (d.lease_until is null or d.lease_until <= ${ts(now)})
            ${due ? sql`and d.status = 'pending' and d.next_attempt_at <= ${ts(now)}` : sql``}
            and exists (select 1 from webhook_endpoints e where e.tenant_id = d.tenant_id and e.id = d.endpoint_id and e.status = 'enabled')
          for update of d skip locked
        )
        update webhook_deliveries d
        set lease_until = ${ts(leaseUntil)}, attempts = d.attempts + 1, status = 'pending', next_attempt_at = ${ts(now)}
        from c, webhook_endpoints e, webhook_events v
        where d.tenant_id = ${tenantId} and d.id = c.id
          and e.tenant_id = d.tenant_id and e.id = d.endpoint_id
          and v.tenant_id = d.tenant_id and v.id = d.event_id
        returning d.id, d.endpoint_id, d.event_id, d.attempts, e.url, e.secret_enc, v.type, v.data, v.created_at as event_at`,
  );
  return rows.map(claimedFrom(tenantId, leaseUntil));
}

/**
 * Due deliveries of enabled endpoints of every company, oldest due first, read by the server's
 * login (not locked: each is claimed in its company's transaction).
 */
async function dueDeliveries(db: Db, now: Date, limit: number): Promise<{ tenant_id: string; id: string }[]> {
  return queryRows(
    db,
    sql`select d.tenant_id, d.id from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at <= ${ts(now)} and (d.lease_until is null or d.lease_until <= ${ts(now)})
          and exists (select 1 from webhook_endpoints e where e.tenant_id = d.tenant_id and e.id = d.endpoint_id and e.status = 'enabled')
        order by d.next_attempt_at limit ${limit}`,
  );
}

/** `rows` grouped by company: ids by tenant id. */
function byTenant(rows: { tenant_id: string; id: string }[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const r of rows) groups.set(r.tenant_id, [...(groups.get(r.tenant_id) ?? []), r.id]);
  return groups;
}

/** The body of a delivery: the envelope (common/contracts/webhook-events.ts `webhookEnvelope`) as JSON. */
export function envelopeOf(delivery: Pick<ClaimedDelivery, 'type' | 'data' | 'eventAt'>): string {
  return JSON.stringify({ type: delivery.type, timestamp: delivery.eventAt.toISOString(), data: delivery.data });
}

/**
 * Writes the outcome of `delivery`'s attempt made at `at`, if its sender still holds it, and
 * updates its endpoint's failing state; disables the endpoint after ENDPOINT_FAILING_DAYS of
 * failures.
 * @returns whether this outcome disabled the endpoint.
 */
async function recordOutcome(tx: Tx, delivery: ClaimedDelivery, at: Date, outcome: AttemptOutcome): Promise<boolean> {
  const next = outcome.ok ? null : nextAttemptAt(delivery.attempts, at);
  const status = outcome.ok ? 'succeeded' : next ? 'pending' : 'failed';
  const [written] = await queryRows(
    tx,
    sql`update webhook_deliveries
        set status = ${status}, next_attempt_at = ${next ? ts(next) : null}, lease_until = null, last_attempt_at = ${ts(at)},
            last_status_code = ${outcome.statusCode}, last_duration_ms = ${outcome.durationMs}, last_error = ${outcome.error}
        where tenant_id = ${delivery.tenantId} and id = ${delivery.id} and lease_until = ${ts(delivery.leaseUntil)}
        returning id`,
  );
  if (!written) return false;
  if (outcome.ok) {
    await tx.execute(
      sql`update webhook_endpoints set failing_since = null where tenant_id = ${delivery.tenantId} and id = ${delivery.endpointId} and failing_since is not null`,
    );
    return false;
  }
  // Locked first: of two failing senders, only the one that disables the endpoint emails.
  const [endpoint] = await queryRows<{ status: string; failing_since: string | Date | null }>(
    tx,
    sql`select status, failing_since from webhook_endpoints where tenant_id = ${delivery.tenantId} and id = ${delivery.endpointId} for update`,
  );
  if (!endpoint) return false;
  const failingSince = endpoint.failing_since === null ? at : new Date(endpoint.failing_since);
  const disable = endpoint.status === 'enabled' && at.getTime() - failingSince.getTime() >= ENDPOINT_FAILING_DAYS * 86_400_000;
  await tx.execute(
    sql`update webhook_endpoints
        set failing_since = ${ts(failingSince)}${disable ? sql`, status = 'disabled', disabled_reason = ${FAILING_REASON}, updated_at = ${ts(at)}` : sql``}
        where tenant_id = ${delivery.tenantId} and id = ${delivery.endpointId}`,
  );
  // Disabled now, or by another sender's outcome while this attempt was under way.
  if (disable || endpoint.status === 'disabled') await failPendingDeliveries(tx, delivery.tenantId, delivery.endpointId, at);
  return disable;
}

/** Ends the pending deliveries of a disabled endpoint that no sender holds: they fail ('Endpoint disabled'). */
export async function failPendingDeliveries(tx: Tx, tenantId: string, endpointId: string, at: Date): Promise<void> {
  await tx.execute(
    sql`update webhook_deliveries set status = 'failed', next_attempt_at = null, last_error = coalesce(last_error, 'Endpoint disabled')
        where tenant_id = ${tenantId} and endpoint_id = ${endpointId} and status = 'pending' and (lease_until is null or lease_until <= ${ts(at)})`,
  );
}

/**
 * Emails the admins and owners of the company that the endpoint of `delivery` was disabled; a
 * failure (reading them, or one person's email) is logged, never thrown: the endpoint stays
 * disabled either way.
 */
async function mailDisabled(deps: WebhookDeps, delivery: ClaimedDelivery): Promise<void> {
  const failed = (err: unknown) => console.error('webhooks: the email of a disabled endpoint could not be sent', err);
  try {
    const { admins, company } = await withTenant(deps.db, delivery.tenantId, async (tx) => ({
      admins: await queryRows<{ user_id: string }>(tx, sql`select user_id from memberships where tenant_id = ${delivery.tenantId} and role in ('admin', 'owner')`),
      company: (await queryRows<{ name: string }>(tx, sql`select name from tenants where id = ${delivery.tenantId}`))[0]?.name ?? 'your company',
    }));
    const people = await peopleByIds(deps.db, admins.map((a) => a.user_id));
    for (const person of people.values()) {
      await deps.mailer.send(endpointDisabledMail({ to: person.email, company, url: delivery.url, days: ENDPOINT_FAILING_DAYS, appUrl: deps.appUrl })).catch(failed);
    }
  } catch (err) {
    failed(err);
  }
}

/**
 * Makes the attempt of a claimed delivery and writes its outcome (module comment).
 * @returns the outcome (also when the lease was lost meanwhile and it was not written).
 * @throws whatever the database throws while writing the outcome (the lease then runs out and
 *   the delivery is attempted again).
 */
export async function attemptDelivery(deps: WebhookDeps, delivery: ClaimedDelivery): Promise<AttemptOutcome> {
  const at = deps.now();
  let outcome: AttemptOutcome;
  try {
    const secret = deps.box.open(delivery.secretEnc);
    outcome = await postWebhook({ url: delivery.url, secret, id: delivery.eventId, sentAt: at, body: envelopeOf(delivery) }, deps.post);
  } catch {
    // Only the secret box throws here: APP_SECRET changed since the endpoint was made.
    outcome = { ok: false, statusCode: null, durationMs: 0, error: 'The signing secret cannot be read; create the endpoint again' };
  }
  const disabled = await withTenant(deps.db, delivery.tenantId, (tx) => recordOutcome(tx, delivery, at, outcome));
  if (disabled) await mailDisabled(deps, delivery);
  return outcome;
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Sends every delivery due by `deps.now()`, batch after batch, until none is left that this
 * sender could claim.
 * @returns the attempts made, and how many succeeded.
 */
export async function sendDueDeliveries(deps: WebhookDeps): Promise<{ attempts: number; succeeded: number }> {
  const result = { attempts: 0, succeeded: 0 };
  for (;;) {
    const now = deps.now();
    const due = await dueDeliveries(deps.db, now, CLAIM_BATCH);
    if (due.length === 0) return result;
    const claimed: ClaimedDelivery[] = [];
    for (const [tenantId, ids] of byTenant(due)) {
      claimed.push(...(await withTenant(deps.db, tenantId, (tx) => claimInTenant(tx, tenantId, ids, now, leaseMs(deps.post)))));
    }
    // Every one was taken by another sender (or changed meanwhile): leave them to it.
    if (claimed.length === 0) return result;
    await inParallel(claimed, PARALLEL_ATTEMPTS, async (delivery) => {
      const outcome = await attemptDelivery(deps, delivery).catch((err: unknown) => {
        console.error('webhooks: the outcome of a delivery could not be written', err);
        return null;
      });
      result.attempts++;
      if (outcome?.ok) result.succeeded++;
    });
  }
}

/**
 * Deletes the events older than EVENT_RETENTION_DAYS before `now` (their deliveries go with
 * them), at most `limit` at a time, as the server's login: found across companies, deleted by
 * company (one shard's statement each on Citus).
 * @returns how many events were deleted.
 */
export async function pruneOldEvents(db: Db, now: Date, limit = 1000): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  const old = await queryRows<{ tenant_id: string; id: string }>(db, sql`select tenant_id, id from webhook_events where created_at < ${ts(cutoff)} limit ${limit}`);
  for (const [tenantId, ids] of byTenant(old)) {
    // Event ids are `msg_` and hex digits: an array literal needs no quoting.
    await db.execute(sql`delete from webhook_events where tenant_id = ${tenantId} and id = any(${pgArray(ids)}::text[])`);
  }
  return old.length;
}
