/**
 * Whether any enabled endpoint of a company receives an event type (docs/decisions/050-webhooks.md):
 * the writers whose event data costs queries of its own (names, a stay diff, a forecast) ask
 * first, and build it only when someone listens. `record_webhook_event` (migration 0044) checks
 * again in the same transaction, so the answer never decides alone what is recorded.
 */
import { sql } from 'drizzle-orm';
import type { WebhookEventType } from '../../../common/contracts/webhook-events';
import { pgTextArray, queryRows, type Tx } from '../../db/client';

/**
 * Which of `types` an enabled endpoint of company `tenantId` is subscribed to, read in the
 * caller's tenant transaction (row-level security holds it to that company).
 */
export async function listenedTypes(tx: Tx, tenantId: string, types: readonly WebhookEventType[]): Promise<Set<WebhookEventType>> {
  const rows = await queryRows<{ type: WebhookEventType }>(
    tx,
    sql`select distinct t.type from webhook_endpoints e cross join unnest(e.events) as t(type)
        where e.tenant_id = ${tenantId} and e.status = 'enabled' and t.type = any(${pgTextArray(types)}::text[])`,
  );
  return new Set(rows.map((r) => r.type));
}
