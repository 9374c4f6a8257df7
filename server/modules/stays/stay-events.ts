/**
 * The webhook events `stay.created`, `stay.changed` and `stay.cancelled` (docs/product.md
 * "Webhooks", "Stays"; common/contracts/webhook-events.ts): a writer of reservations (a calendar
 * link's read or removal, a Hostaway sync or a reservation read again) takes the stays it may
 * change before writing, and after writing — once the bookings several sources give are matched
 * (one-booking.ts) — records the difference, in the same tenant transaction:
 * - a stay that counts now and did not: `stay.created`;
 * - one that counted and no longer does (cancelled at its source, no longer listed, its link
 *   removed, or now the duplicate of another source's stay): `stay.cancelled`;
 * - one whose property, dates or guests changed: `stay.changed`, with how it was.
 * Only stays that have not ended are compared (departing yesterday or later, by the database's
 * day): a history read again sends nothing. When no endpoint listens nothing is read.
 */
import { sql } from 'drizzle-orm';
import type { StayChangedEventData, StayEventData, WebhookStay } from '../../../common/contracts/webhook-events';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { listenedTypes } from '../webhooks/listened';
import { recordWebhookEvent } from '../webhooks/record-event';
import { STAY_STATUSES } from './stay-rules';

const STAY_EVENT_TYPES = ['stay.created', 'stay.changed', 'stay.cancelled'] as const;

/** The stays a writer may change, by `{source}/{id}`, and the properties they were read for (all when undefined). */
export interface StaysBefore {
  unitIds: readonly string[] | undefined;
  stays: Map<string, WebhookStay>;
}

const statuses = sql.join(
  STAY_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

/** The stays that have not ended of company `tenantId` (of `unitIds` only, when given), by `{source}/{id}`. */
async function readStays(tx: Tx, tenantId: string, unitIds: readonly string[] | undefined): Promise<Map<string, WebhookStay>> {
  const rows = await queryRows<{ source: WebhookStay['source']; id: string; unit_id: string; unit_name: string; arrival_date: string; departure_date: string; guests: number | null }>(
    tx,
    sql`select r.source, r.id, r.unit_id, u.name as unit_name, r.arrival_date::text, r.departure_date::text, r.guests
        from reservations r join units u on u.tenant_id = r.tenant_id and u.id = r.unit_id
        where r.tenant_id = ${tenantId} and u.tenant_id = ${tenantId} and r.status in (${statuses})
          and r.departure_date >= current_date - 1
          ${unitIds ? sql`and r.unit_id = any(${pgArray(unitIds)}::uuid[])` : sql``}`,
  );
  return new Map(
    rows.map((r) => [
      `${r.source}/${r.id}`,
      {
        id: r.id,
        source: r.source,
        property: { id: r.unit_id, name: r.unit_name },
        arrival_date: r.arrival_date,
        departure_date: r.departure_date,
        guests: r.guests === null ? null : Number(r.guests),
      },
    ]),
  );
}

/**
 * The stays of company `tenantId` (of properties `unitIds` only, when given) before a write, read
 * in the writer's tenant transaction; null when no endpoint of the company receives stay events.
 */
export async function staysBefore(tx: Tx, tenantId: string, unitIds?: readonly string[]): Promise<StaysBefore | null> {
  if ((await listenedTypes(tx, tenantId, STAY_EVENT_TYPES)).size === 0) return null;
  return { unitIds, stays: await readStays(tx, tenantId, unitIds) };
}

/**
 * Records the stay events of the write since `before` (null: nobody listened, nothing to do),
 * reading the same properties again in the writer's tenant transaction. A stay moved to a
 * property outside `before.unitIds` is read as cancelled: writers name every property they write.
 */
export async function recordStayChanges(tx: Tx, tenantId: string, before: StaysBefore | null): Promise<void> {
  if (!before) return;
  const after = await readStays(tx, tenantId, before.unitIds);
  for (const [key, stay] of after) {
    const was = before.stays.get(key);
    if (!was) await recordWebhookEvent(tx, tenantId, 'stay.created', { stay } satisfies StayEventData);
    else if (
      was.property.id !== stay.property.id ||
      was.arrival_date !== stay.arrival_date ||
      was.departure_date !== stay.departure_date ||
      was.guests !== stay.guests
    ) {
      const previous = { property: was.property, arrival_date: was.arrival_date, departure_date: was.departure_date, guests: was.guests };
      await recordWebhookEvent(tx, tenantId, 'stay.changed', { stay, previous } satisfies StayChangedEventData);
    }
  }
  for (const [key, stay] of before.stays) {
    if (!after.has(key)) await recordWebhookEvent(tx, tenantId, 'stay.cancelled', { stay } satisfies StayEventData);
  }
}
