/**
 * The webhook event `stock.counted` (docs/product.md "Webhooks", "Screens: Count";
 * common/contracts/webhook-events.ts `stockCountedEventData`): one per count saved, in the count's
 * transaction, listing the rows it changed (at most STOCK_COUNTED_ITEMS_LISTED).
 */
import { sql } from 'drizzle-orm';
import { STOCK_COUNTED_ITEMS_LISTED, type StockCountedEventData } from '../../../common/contracts/webhook-events';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { listenedTypes } from '../webhooks/listened';
import { recordWebhookEvent } from '../webhooks/record-event';
import type { Location } from './tables';

/** Who saved a count: a person (as the Dashboard's activity names them) or an API key (its name); null when unknown. */
export type Counter = { person: string } | { apiKeyName: string } | null;

/** A count saved at one location: who counted, and the rows it changed, ordered by item name. */
export interface SavedCount {
  locationId: string;
  by: Counter;
  changed: readonly { item_id: string; item_name: string; previous: number; quantity: number }[];
}

/**
 * Records `stock.counted` for each of `counts` (at locations of `kind`, company `tenantId`) inside
 * the counts' tenant transaction; reads the names it needs only when an endpoint listens.
 */
export async function recordCounts(tx: Tx, tenantId: string, kind: Location['kind'], counts: readonly SavedCount[]): Promise<void> {
  if (counts.length === 0 || !(await listenedTypes(tx, tenantId, ['stock.counted'])).size) return;
  const table = kind === 'unit' ? sql`units` : sql`garages`;
  const places = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from ${table} where tenant_id = ${tenantId} and id = any(${pgArray(counts.map((c) => c.locationId))}::uuid[])`,
  );
  const placeName = new Map(places.map((p) => [p.id, p.name]));
  for (const count of counts) {
    const data: StockCountedEventData = {
      location: { type: kind, id: count.locationId, name: placeName.get(count.locationId) ?? '' },
      counted_by: count.by === null ? null : 'person' in count.by ? count.by.person : `API key “${count.by.apiKeyName}”`,
      items_changed: count.changed.length,
      items: count.changed.slice(0, STOCK_COUNTED_ITEMS_LISTED).map((c) => ({ id: c.item_id, name: c.item_name, before: c.previous, after: c.quantity })),
    };
    await recordWebhookEvent(tx, tenantId, 'stock.counted', data);
  }
}
