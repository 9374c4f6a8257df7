/**
 * The events a company's webhook endpoints may receive (docs/product.md "Webhooks"). Each delivery
 * is signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`,
 * https://www.standardwebhooks.com/) and its body is the envelope below: `type`, `timestamp` and
 * the event's `data`, whose shape per type is documented in the API document's `webhooks`.
 */
import { z } from 'zod';

/**
 * Every event type, in the order the webhooks screen lists them:
 * - `stock.low` / `stock.critical`: a stock row (a property's or a storage's) enters that status;
 *   a row already in it does not fire again until it has left it;
 * - `stock.counted`: a count (stocktake) of a place was saved;
 * - `forecast.short`: each morning, the properties whose next arrival would start short at the
 *   company's service level;
 * - `stay.created` / `stay.changed` / `stay.cancelled`: a reservation read from a calendar link or
 *   a channel import appears, moves or is cancelled;
 * - `pick_list.delivered`: a pick list's lines were delivered from a storage to its properties.
 */
export const WEBHOOK_EVENT_TYPES = [
  'stock.low',
  'stock.critical',
  'stock.counted',
  'forecast.short',
  'stay.created',
  'stay.changed',
  'stay.cancelled',
  'pick_list.delivered',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** How each event type is named on screen. */
export const webhookEventNames: Record<WebhookEventType, string> = {
  'stock.low': 'Stock turns low',
  'stock.critical': 'Stock turns critical',
  'stock.counted': 'A count is saved',
  'forecast.short': 'Properties short before an arrival (each morning)',
  'stay.created': 'A stay is added',
  'stay.changed': 'A stay changes',
  'stay.cancelled': 'A stay is cancelled',
  'pick_list.delivered': 'A pick list is delivered',
};

/** The event a "Send test event" delivers, outside the types an endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** The body of every delivery; `data` depends on `type`. */
export const webhookEnvelope = z.object({
  type: z.string(),
  /** ISO 8601 UTC: when the event happened. */
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelope>;
