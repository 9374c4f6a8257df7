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

// ---- The data of each event ---------------------------------------------------------------

/** A stock location: a property (`unit`) or a storage (`garage`), with its name when the event happened. */
export const webhookLocation = z.object({
  type: z.enum(['unit', 'garage']),
  id: z.string(),
  name: z.string(),
});

/** An item of the supply catalogue, with its name when the event happened. */
export const webhookItem = z.object({ id: z.string(), name: z.string() });

/** A property, with its name when the event happened. */
export const webhookProperty = z.object({ id: z.string(), name: z.string() });

/**
 * `stock.low` and `stock.critical` (docs/product.md "Stock movements and statuses"; recorded by
 * the trigger of migration 0045): a stock row's status worsened into `status` — sufficient to
 * low, or sufficient or low to critical. A row that rises from critical to low, or keeps its
 * status, sends nothing, so a row fires `stock.low` again only after it has been sufficient.
 * Pieces are whole numbers.
 */
export const stockLevelEventData = z.object({
  location: webhookLocation,
  item: webhookItem,
  /** The row's quantity after the change, in pieces. */
  quantity: z.number().int(),
  /** The item's minimum threshold, in pieces: at or below it the row is low; at 0 or below, critical. */
  minimum_threshold: z.number().int(),
  status: z.enum(['low', 'critical']),
});
export type StockLevelEventData = z.infer<typeof stockLevelEventData>;

/** The most counted rows a `stock.counted` event lists; `items_changed` counts them all. */
export const STOCK_COUNTED_ITEMS_LISTED = 100;

/**
 * `stock.counted` (docs/product.md "Screens: Count"): a count (stocktake) of a place was saved,
 * whether or not it changed anything. It lists the rows whose quantity it changed, by item name,
 * at most STOCK_COUNTED_ITEMS_LISTED of them (`items_changed` counts them all, so a receiver
 * knows when the list is cut); the rows counted right are not listed.
 */
export const stockCountedEventData = z.object({
  location: webhookLocation,
  /** The name of the person who counted, or of the API key (`API key “{name}”`); null when it has none. */
  counted_by: z.string().nullable(),
  /** Rows whose quantity the count changed. */
  items_changed: z.number().int(),
  /** The first STOCK_COUNTED_ITEMS_LISTED of them by item name: the quantity before and after, in pieces. */
  items: z.array(z.object({ id: z.string(), name: z.string(), before: z.number().int(), after: z.number().int() })),
});
export type StockCountedEventData = z.infer<typeof stockCountedEventData>;

/**
 * `pick_list.delivered` (docs/product.md "Pick lists", Mark as delivered): a pick list's lines
 * moved from a storage to one property, as restock transfers. A property is delivered at a time,
 * so a storage's day sends one event per property it delivers.
 */
export const pickListDeliveredEventData = z.object({
  garage: z.object({ id: z.string(), name: z.string() }),
  property: webhookProperty,
  /** The company's calendar day (YYYY-MM-DD, its time zone) of the delivery. */
  date: z.string(),
  /** Lines delivered (one per item). */
  lines: z.number().int(),
  /** Pieces delivered, all lines together. */
  pieces: z.number().int(),
});
export type PickListDeliveredEventData = z.infer<typeof pickListDeliveredEventData>;

/** A stay (docs/product.md "Stays") as its event describes it. */
export const webhookStay = z.object({
  /** The source's id of the reservation: Hostaway's reservation id, or `{calendar link id}/{event UID}`. */
  id: z.string(),
  source: z.enum(['hostaway', 'calendar', 'demo']),
  property: webhookProperty,
  /** The property's calendar days (YYYY-MM-DD); the departure is the checkout day. */
  arrival_date: z.string(),
  departure_date: z.string(),
  /** Guests as the source gives them; null when it gives none (a calendar link). */
  guests: z.number().int().nullable(),
});
export type WebhookStay = z.infer<typeof webhookStay>;

/**
 * `stay.created` and `stay.cancelled` (docs/product.md "Stays"): a stay begins or stops counting —
 * read from a calendar link or from Hostaway; cancelled at its source, no longer listed by it, or
 * its calendar link removed. A calendar link's booking that another source already gives is not a
 * stay of its own (docs/product.md "Stays", one booking, one stay): it sends nothing while it is
 * the other's duplicate.
 */
export const stayEventData = z.object({ stay: webhookStay });
export type StayEventData = z.infer<typeof stayEventData>;

/** `stay.changed`: a stay's dates, guests or property changed; `previous` is how it was. */
export const stayChangedEventData = z.object({
  stay: webhookStay,
  previous: webhookStay.pick({ property: true, arrival_date: true, departure_date: true, guests: true }),
});
export type StayChangedEventData = z.infer<typeof stayChangedEventData>;

/** The most properties a `forecast.short` event lists; `properties_short` counts them all. */
export const FORECAST_SHORT_PROPERTIES_LISTED = 50;

/**
 * `forecast.short` (docs/product.md "Webhooks"): each morning, at the company's morning email
 * hour in its time zone, the properties whose next arrival within 7 days would start short at the
 * company's service level (the chance that it finds every item, with nothing brought, is below
 * the level), earliest arrival first, with the items a pick list at that level would bring. Sent
 * only when at least one is.
 */
export const forecastShortEventData = z.object({
  /** The company's calendar day (YYYY-MM-DD) of the forecast. */
  date: z.string(),
  /** The days ahead the forecast looked for a next arrival. */
  horizon_days: z.number().int(),
  /** The company's service level, percent (50–99). */
  service_level: z.number().int(),
  /** Properties short, all of them. */
  properties_short: z.number().int(),
  /** The first FORECAST_SHORT_PROPERTIES_LISTED of them: earliest arrival, then lowest chance. */
  properties: z.array(
    webhookProperty.extend({
      /** The property's next arrival, a calendar day of the property. */
      arrival_date: z.string(),
      /** The chance (0–1) that this arrival finds every item it needs if nothing is brought. */
      chance: z.number(),
      items_short: z.number().int(),
      /** The items to bring, by name: the property's stock and the pieces to bring to reach the level. */
      items: z.array(webhookItem.extend({ quantity: z.number().int(), bring: z.number().int() })),
    }),
  ),
});
export type ForecastShortEventData = z.infer<typeof forecastShortEventData>;

/** The schema of each event type's `data`. */
export const webhookEventData = {
  'stock.low': stockLevelEventData,
  'stock.critical': stockLevelEventData,
  'stock.counted': stockCountedEventData,
  'forecast.short': forecastShortEventData,
  'stay.created': stayEventData,
  'stay.changed': stayChangedEventData,
  'stay.cancelled': stayEventData,
  'pick_list.delivered': pickListDeliveredEventData,
} satisfies Record<WebhookEventType, z.ZodType>;
