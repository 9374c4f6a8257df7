/**
 * The OpenAPI 3.1 `webhooks` of the API document (docs/product.md "Webhooks",
 * docs/decisions/050-webhooks.md): one entry per event type, a POST to the endpoint's URL whose
 * body is the envelope (`type`, `timestamp`, `data`) with that event's `data` schema
 * (common/contracts/webhook-events.ts) and an example, signed with the Standard Webhooks headers.
 */
import { z } from 'zod';
import {
  WEBHOOK_EVENT_TYPES,
  webhookEventData,
  webhookEventNames,
  type ForecastShortEventData,
  type PickListDeliveredEventData,
  type StayChangedEventData,
  type StayEventData,
  type StockCountedEventData,
  type StockLevelEventData,
  type WebhookEventType,
} from '../../common/contracts/webhook-events';
import { demoOwner, demoProperty, demoStorage, demoTowel } from './api-examples';

// The demo company's records, as the operations' examples name them (server/lib/api-examples.ts).
const property = { id: demoProperty.id, name: demoProperty.name };
const storage = { id: demoStorage.id, name: demoStorage.name };
const towel = { id: demoTowel.id, name: demoTowel.name };
const stay = {
  id: '48213377',
  source: 'hostaway' as const,
  property,
  arrival_date: '2026-12-04',
  departure_date: '2026-12-07',
  guests: 4,
};

const low: StockLevelEventData = { location: { type: 'unit', ...property }, item: towel, quantity: 3, minimum_threshold: 4, status: 'low' };
const counted: StockCountedEventData = {
  location: { type: 'garage', ...storage },
  counted_by: demoOwner.name,
  items_changed: 1,
  items: [{ ...towel, before: 40, after: 36 }],
};
const delivered: PickListDeliveredEventData = { garage: storage, property, date: '2026-12-03', lines: 6, pieces: 23 };
const created: StayEventData = { stay };
const changed: StayChangedEventData = { stay, previous: { property, arrival_date: '2026-12-03', departure_date: '2026-12-07', guests: 4 } };
const short: ForecastShortEventData = {
  date: '2026-12-03',
  horizon_days: 7,
  service_level: 95,
  properties_short: 1,
  properties: [{ ...property, arrival_date: '2026-12-04', chance: 0.62, items_short: 1, items: [{ ...towel, quantity: 3, bring: 5 }] }],
};

/** An example `data` of each event type. */
const examples: Record<WebhookEventType, object> = {
  'stock.low': low,
  'stock.critical': { ...low, quantity: 0, status: 'critical' },
  'stock.counted': counted,
  'forecast.short': short,
  'stay.created': created,
  'stay.changed': changed,
  'stay.cancelled': created,
  'pick_list.delivered': delivered,
};

/** When each event is sent (docs/product.md "Webhooks"). */
const whenSent: Record<WebhookEventType, string> = {
  'stock.low': 'A stock row of a property or a storage turns low (from sufficient): its quantity falls to its item’s minimum threshold or below. A row fires again only after it has been sufficient.',
  'stock.critical': 'A stock row turns critical (from sufficient or low): its quantity reaches 0. A row rising from critical to low sends nothing.',
  'stock.counted': 'A count (stocktake) of a property or a storage is saved; it lists the rows it changed, at most 100 (`items_changed` counts them all).',
  'forecast.short': 'Each morning at the company’s email hour in its time zone, when the next arrival of at least one property, within 7 days, would start short at the company’s service level: the chance that it finds every item, with nothing brought, is below the level. Each property lists the items a pick list at that level would bring; at most 50 properties are listed (`properties_short` counts them all).',
  'stay.created': 'A stay begins to count: read from a calendar link or from Hostaway.',
  'stay.changed': 'A stay’s dates, guests or property change; `previous` is how it was.',
  'stay.cancelled': 'A stay stops counting: cancelled at its source, no longer listed by it, its calendar link removed, or found to be the same booking as another source’s stay.',
  'pick_list.delivered': 'A pick list is marked as delivered to a property: its lines moved from the storage as restock transfers.',
};

/** The Standard Webhooks headers of every delivery (https://www.standardwebhooks.com/). */
const signatureHeaders = {
  'webhook-id': { description: 'The event id (`msg_…`), the same on every attempt: deduplicate on it.', schema: { type: 'string' } },
  'webhook-timestamp': { description: 'Unix time in seconds of this attempt.', schema: { type: 'string' } },
  'webhook-signature': {
    description: '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint secret (`whsec_…`).',
    schema: { type: 'string' },
  },
};

/** The document's `webhooks`: keyed by event type. */
export function webhookDocuments(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const envelope = z.object({
        type: z.literal(type),
        timestamp: z.string().describe('ISO 8601 UTC: when the event happened.'),
        data: webhookEventData[type],
      });
      return [
        type,
        {
          post: {
            operationId: `webhook_${type.replace('.', '_')}`,
            summary: webhookEventNames[type],
            description: whenSent[type],
            tags: ['webhook-events'],
            security: [],
            parameters: Object.entries(signatureHeaders).map(([name, header]) => ({ name, in: 'header', required: true, ...header })),
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: z.toJSONSchema(envelope, { target: 'draft-2020-12', io: 'input' }),
                  example: { type, timestamp: '2026-12-03T07:00:00.000Z', data: examples[type] },
                },
              },
            },
            responses: {
              '200': { description: 'Received. Any 2xx counts; another answer, or none within 10 seconds, is retried.' },
            },
          },
        },
      ];
    }),
  );
}
