/**
 * Recording an event for a company's webhook endpoints (docs/product.md "Webhooks",
 * docs/decisions/050-webhooks.md): the event and one pending delivery per enabled endpoint of
 * the company subscribed to its type, written in the caller's transaction by the SQL function
 * `record_webhook_event` (migration 0044), so an event is delivered exactly when the change that
 * caused it commits. Nothing is written when no endpoint wants the event. Triggers call the SQL
 * function directly; server code calls this.
 */
import { sql } from 'drizzle-orm';
import type { WebhookEventType } from '../../../common/contracts/webhook-events';
import type { Tx } from '../../db/client';

/**
 * Records an event of `type` for `tenantId` with the envelope's `data` (JSON; its shape per type
 * is documented in the API document's `webhooks`), inside `tx` — a tenant transaction of that
 * company (db/tenant-tx.ts `withTenant`): row-level security holds it to that company.
 * @throws whatever the database throws (the caller's transaction then rolls back with it).
 */
export async function recordWebhookEvent(tx: Tx, tenantId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
  await tx.execute(sql`select record_webhook_event(${tenantId}::uuid, ${type}, ${JSON.stringify(data)}::jsonb)`);
}
