/**
 * A company's webhook endpoints and their delivery logs (docs/product.md "Webhooks",
 * docs/decisions/050-webhooks.md), managed by its Admins and Owners in a browser session
 * (routes.ts). An endpoint's secret is made here, shown once in the answer to its creation and
 * stored sealed (server/lib/secret-box.ts). A Resend and a test event are attempted within the
 * request (delivery.ts), so the answer shows how the attempt went.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '../../../common/contracts/webhook-events';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERY_LOG_SIZE,
  WEBHOOK_EVENT_ID_PREFIX,
  WEBHOOK_SECRET_PREFIX,
  type CreateWebhookEndpointAnswer,
  type CreateWebhookEndpointBody,
  type UpdateWebhookEndpointBody,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../../common/contracts/webhooks';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { AddressRefused, checkSavedUrl } from '../../integrations/public-address';
import { AppError, notFound } from '../../lib/errors';
import { displayName, peopleByIds } from '../auth/people';
import type { TenantIdentity } from '../auth/identity';
import { attemptDelivery, claimInTenant, failPendingDeliveries, leaseMs, type WebhookDeps } from './delivery';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** A new endpoint secret: `whsec_` and 24 random bytes in base64 (the Standard Webhooks form). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** A new event id (`msg_` and 32 random hex digits), as `record_webhook_event` makes them (migration 0044). */
const newEventId = () => WEBHOOK_EVENT_ID_PREFIX + randomBytes(16).toString('hex');

type EndpointRow = {
  id: string;
  url: string;
  description: string;
  events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  failing_since: string | Date | null;
  created_at: string | Date;
};

const endpointColumns = sql`id, url, description, events, status, disabled_reason, failing_since, created_at`;

const endpointOf = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: WEBHOOK_EVENT_TYPES.filter((t) => r.events.includes(t)),
  status: r.status,
  disabled_reason: r.disabled_reason,
  failing_since: iso(r.failing_since),
  created_at: iso(r.created_at)!,
});

type DeliveryRow = {
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_attempt_at: string | Date | null;
  created_at: string | Date;
  last_attempt_at: string | Date | null;
};

const deliveryColumns = sql`d.id, d.event_id, v.type as event_type, d.status, d.attempts, d.last_status_code, d.last_duration_ms, d.last_error,
  d.next_attempt_at, d.created_at, d.last_attempt_at`;

const deliveryOf = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  event_id: r.event_id,
  event_type: r.event_type,
  status: r.status,
  attempts: r.attempts,
  last_status_code: r.last_status_code,
  last_duration_ms: r.last_duration_ms,
  last_error: r.last_error,
  next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
  created_at: iso(r.created_at)!,
  last_attempt_at: iso(r.last_attempt_at),
});

/**
 * Refuses a URL whose host is a private or local address as it is typed (public-address.ts
 * `checkSavedUrl`); its resolved addresses are checked again before every attempt.
 * @throws AppError VALIDATION naming the field `url`.
 */
function checkUrl(url: string, allowLoopback: boolean): void {
  try {
    checkSavedUrl(new URL(url), allowLoopback);
  } catch (err) {
    if (!(err instanceof AddressRefused)) throw err;
    const message = err.reason === 'private' ? 'URL must not point to a private or local address' : 'URL must start with https:// or http://';
    throw new AppError('VALIDATION', message, [{ path: ['url'], message }]);
  }
}

/** The endpoint `endpointId` of the company, locked for the rest of `tx`. @throws AppError NOT_FOUND. */
async function lockedEndpoint(tx: Tx, tenantId: string, endpointId: string): Promise<EndpointRow> {
  const [row] = await queryRows<EndpointRow>(tx, sql`select ${endpointColumns} from webhook_endpoints where tenant_id = ${tenantId} and id = ${endpointId} for update`);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/** The company's endpoints, oldest first. */
export async function listEndpoints(deps: WebhookDeps, who: TenantIdentity): Promise<WebhookEndpoint[]> {
  const rows = await withTenant(deps.db, who.tenantId, (tx) =>
    queryRows<EndpointRow>(tx, sql`select ${endpointColumns} from webhook_endpoints where tenant_id = ${who.tenantId} order by created_at, id`),
  );
  return rows.map(endpointOf);
}

/**
 * Creates an endpoint of the caller's company, enabled, with a new secret.
 * @returns the endpoint and its secret: the only time the secret is ever shown.
 * @throws AppError VALIDATION (a private or local address), CONFLICT (MAX_WEBHOOK_ENDPOINTS reached).
 */
export async function createEndpoint(deps: WebhookDeps, who: TenantIdentity, body: CreateWebhookEndpointBody): Promise<CreateWebhookEndpointAnswer> {
  checkUrl(body.url, deps.post.allowLoopback);
  const secret = newWebhookSecret();
  const now = deps.now();
  const row = await withTenant(deps.db, who.tenantId, async (tx) => {
    // The company's row locked: two creations cannot both take the last place.
    await tx.execute(sql`select 1 from tenants where id = ${who.tenantId} for no key update`);
    const [count] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from webhook_endpoints where tenant_id = ${who.tenantId}`);
    if (count!.n >= MAX_WEBHOOK_ENDPOINTS) {
      throw new AppError('CONFLICT', `A company can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one to add another.`);
    }
    const [created] = await queryRows<EndpointRow>(
      tx,
      sql`insert into webhook_endpoints (tenant_id, url, description, events, secret_enc, created_by, created_at, updated_at)
          values (${who.tenantId}, ${body.url}, ${body.description ?? ''}, ${pgArray(body.events)}::text[], ${deps.box.seal(secret)}, ${who.userId}, ${ts(now)}, ${ts(now)})
          returning ${endpointColumns}`,
    );
    return created!;
  });
  return { endpoint: endpointOf(row), secret };
}

/** How an endpoint disabled by a person gives its reason: 'Disabled by {name}'. */
async function disabledBy(deps: WebhookDeps, who: TenantIdentity): Promise<string> {
  const person = (await peopleByIds(deps.db, [who.userId])).get(who.userId);
  return `Disabled by ${person ? displayName(person) : who.email}`;
}

/**
 * Changes the endpoint `endpointId` of the caller's company. `enabled: true` enables a disabled
 * endpoint and clears its failing state; `enabled: false` disables it, and its pending deliveries
 * fail ('Endpoint disabled').
 * @throws AppError NOT_FOUND, VALIDATION (a private or local address).
 */
export async function updateEndpoint(deps: WebhookDeps, who: TenantIdentity, endpointId: string, body: UpdateWebhookEndpointBody): Promise<WebhookEndpoint> {
  if (body.url !== undefined) checkUrl(body.url, deps.post.allowLoopback);
  const reason = body.enabled === false ? await disabledBy(deps, who) : null;
  const now = deps.now();
  const row = await withTenant(deps.db, who.tenantId, async (tx) => {
    const current = await lockedEndpoint(tx, who.tenantId, endpointId);
    const sets = [sql`updated_at = ${ts(now)}`];
    if (body.url !== undefined) sets.push(sql`url = ${body.url}`);
    if (body.description !== undefined) sets.push(sql`description = ${body.description}`);
    if (body.events !== undefined) sets.push(sql`events = ${pgArray(body.events)}::text[]`);
    if (body.enabled === true && current.status === 'disabled') sets.push(sql`status = 'enabled', disabled_reason = null, failing_since = null`);
    if (body.enabled === false && current.status === 'enabled') sets.push(sql`status = 'disabled', disabled_reason = ${reason}`);
    const [updated] = await queryRows<EndpointRow>(
      tx,
      sql`update webhook_endpoints set ${sql.join(sets, sql`, `)} where tenant_id = ${who.tenantId} and id = ${endpointId} returning ${endpointColumns}`,
    );
    if (body.enabled === false && current.status === 'enabled') await failPendingDeliveries(tx, who.tenantId, endpointId, now);
    return updated!;
  });
  return endpointOf(row);
}

/**
 * Deletes the endpoint `endpointId` of the caller's company with its deliveries.
 * @throws AppError NOT_FOUND.
 */
export async function deleteEndpoint(deps: WebhookDeps, who: TenantIdentity, endpointId: string): Promise<void> {
  await withTenant(deps.db, who.tenantId, async (tx) => {
    const deleted = await queryRows(tx, sql`delete from webhook_endpoints where tenant_id = ${who.tenantId} and id = ${endpointId} returning id`);
    if (deleted.length === 0) throw notFound('Webhook endpoint');
  });
}

/**
 * The last WEBHOOK_DELIVERY_LOG_SIZE deliveries of the endpoint `endpointId`, newest first.
 * @throws AppError NOT_FOUND.
 */
export async function listDeliveries(deps: WebhookDeps, who: TenantIdentity, endpointId: string): Promise<WebhookDelivery[]> {
  const rows = await withTenant(deps.db, who.tenantId, async (tx) => {
    const [endpoint] = await queryRows(tx, sql`select id from webhook_endpoints where tenant_id = ${who.tenantId} and id = ${endpointId}`);
    if (!endpoint) throw notFound('Webhook endpoint');
    return queryRows<DeliveryRow>(
      tx,
      sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events v on v.tenant_id = d.tenant_id and v.id = d.event_id
          where d.tenant_id = ${who.tenantId} and d.endpoint_id = ${endpointId}
          order by d.created_at desc, d.id desc limit ${WEBHOOK_DELIVERY_LOG_SIZE}`,
    );
  });
  return rows.map(deliveryOf);
}

/** The delivery `deliveryId` as listed. */
async function deliveryRow(deps: WebhookDeps, tenantId: string, deliveryId: string): Promise<WebhookDelivery> {
  const [row] = await withTenant(deps.db, tenantId, (tx) =>
    queryRows<DeliveryRow>(
      tx,
      sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events v on v.tenant_id = d.tenant_id and v.id = d.event_id
          where d.tenant_id = ${tenantId} and d.id = ${deliveryId}`,
    ),
  );
  if (!row) throw notFound('Delivery');
  return deliveryOf(row);
}

/**
 * Resend: a new attempt now of the delivery `deliveryId` of the endpoint `endpointId`, with the
 * same `webhook-id`, whatever its status; made within the request.
 * @returns the delivery after the attempt.
 * @throws AppError NOT_FOUND, CONFLICT (the endpoint is disabled, or the delivery is being sent).
 */
export async function resendDelivery(deps: WebhookDeps, who: TenantIdentity, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const now = deps.now();
  const [claimed] = await withTenant(deps.db, who.tenantId, async (tx) => {
    const endpoint = await lockedEndpoint(tx, who.tenantId, endpointId);
    const [delivery] = await queryRows(tx, sql`select id from webhook_deliveries where tenant_id = ${who.tenantId} and id = ${deliveryId} and endpoint_id = ${endpointId}`);
    if (!delivery) throw notFound('Delivery');
    if (endpoint.status === 'disabled') throw new AppError('CONFLICT', 'This endpoint is disabled. Enable it to resend its deliveries.');
    const taken = await claimInTenant(tx, who.tenantId, [deliveryId], now, leaseMs(deps.post), false);
    if (taken.length === 0) throw new AppError('CONFLICT', 'This delivery is being sent right now. Try again in a moment.');
    return taken;
  });
  await attemptDelivery(deps, claimed!);
  return deliveryRow(deps, who.tenantId, deliveryId);
}

/**
 * Sends a `webhook.test` event to the endpoint `endpointId` alone, within the request.
 * @returns its delivery after the attempt (retried later like any other when it failed).
 * @throws AppError NOT_FOUND, CONFLICT (the endpoint is disabled).
 */
export async function sendTestEvent(deps: WebhookDeps, who: TenantIdentity, endpointId: string): Promise<WebhookDelivery> {
  const now = deps.now();
  const [claimed] = await withTenant(deps.db, who.tenantId, async (tx) => {
    const endpoint = await lockedEndpoint(tx, who.tenantId, endpointId);
    if (endpoint.status === 'disabled') throw new AppError('CONFLICT', 'This endpoint is disabled. Enable it to send a test event.');
    const eventId = newEventId();
    const data = { endpoint_id: endpointId, message: 'A test event: this endpoint receives the events it subscribes to.' };
    await tx.execute(
      sql`insert into webhook_events (tenant_id, id, type, data, created_at) values (${who.tenantId}, ${eventId}, ${WEBHOOK_TEST_EVENT_TYPE}, ${JSON.stringify(data)}::jsonb, ${ts(now)})`,
    );
    const [delivery] = await queryRows<{ id: string }>(
      tx,
      sql`insert into webhook_deliveries (tenant_id, event_id, endpoint_id, next_attempt_at, created_at)
          values (${who.tenantId}, ${eventId}, ${endpointId}, ${ts(now)}, ${ts(now)}) returning id`,
    );
    return claimInTenant(tx, who.tenantId, [delivery!.id], now, leaseMs(deps.post), false);
  });
  await attemptDelivery(deps, claimed!);
  return deliveryRow(deps, who.tenantId, claimed!.id);
}
