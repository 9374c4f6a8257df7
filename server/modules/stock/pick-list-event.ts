/**
 * The webhook event `pick_list.delivered` (docs/product.md "Webhooks", "Pick lists";
 * common/contracts/webhook-events.ts `pickListDeliveredEventData`): one per Mark as delivered, in
 * its transaction, naming the storage, the property, the company's day and what was delivered.
 */
import { sql } from 'drizzle-orm';
import type { PickListDeliveredEventData } from '../../../common/contracts/webhook-events';
import { queryRows, type Tx } from '../../db/client';
import { companyZone, localDay } from '../stays/local-days';
import { listenedTypes } from '../webhooks/listened';
import { recordWebhookEvent } from '../webhooks/record-event';

/**
 * Records `pick_list.delivered` for `lines` (pieces per item) delivered at `now` to property
 * `unitId` from storage `garageId`, inside the delivery's tenant transaction of company `tenantId`;
 * reads the names only when an endpoint listens.
 */
export async function recordPickListDelivered(
  tx: Tx,
  tenantId: string,
  delivery: { unitId: string; garageId: string; lines: readonly { quantity: number }[]; now: Date },
): Promise<void> {
  if (!(await listenedTypes(tx, tenantId, ['pick_list.delivered'])).size) return;
  const [names] = await queryRows<{ unit: string; garage: string }>(
    tx,
    sql`select (select name from units where tenant_id = ${tenantId} and id = ${delivery.unitId}) as unit,
               (select name from garages where tenant_id = ${tenantId} and id = ${delivery.garageId}) as garage`,
  );
  const data: PickListDeliveredEventData = {
    garage: { id: delivery.garageId, name: names!.garage },
    property: { id: delivery.unitId, name: names!.unit },
    date: localDay(delivery.now, await companyZone(tx, tenantId)),
    lines: delivery.lines.length,
    pieces: delivery.lines.reduce((sum, l) => sum + l.quantity, 0),
  };
  await recordWebhookEvent(tx, tenantId, 'pick_list.delivered', data);
}
