/**
 * A company's webhook endpoints (docs/product.md "Webhooks", docs/decisions/050-webhooks.md): the
 * Admins and Owners of a company give URLs that receive the events they choose
 * (common/contracts/webhook-events.ts), each delivery signed the Standard Webhooks way with the
 * endpoint's secret, and see each endpoint's recent deliveries. The routes need a browser session:
 * an API key never manages webhooks.
 */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';
import { MAX_TEXT_LENGTH } from './fields';

/** Longest endpoint URL, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;

/** Longest endpoint description, in characters. */
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = MAX_TEXT_LENGTH;

/** Endpoints a company may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** Deliveries an endpoint's delivery log shows, newest first. */
export const WEBHOOK_DELIVERY_LOG_SIZE = 100;

/** The start of every endpoint secret (Standard Webhooks' symmetric secret: `whsec_` + base64). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The start of every event id, the `webhook-id` a receiver deduplicates on. */
export const WEBHOOK_EVENT_ID_PREFIX = 'msg_';

/** C0/C1 control characters, unpaired surrogates and spaces, none of which belong in a URL. */
const CONTROL_OR_SPACE = /[\p{Cc}\p{Cs}\s]/u;
/** C0/C1 control characters and unpaired surrogates (a description is one line). */
const CONTROL_OR_BROKEN = /[\p{Cc}\p{Cs}]/u;

/**
 * An endpoint URL as typed, trimmed: http(s), at most MAX_WEBHOOK_URL_LENGTH characters, one
 * line, a valid web address. Whether its host is a public address is the server's check
 * (server/integrations/public-address.ts), when saved and before every delivery.
 */
export const webhookUrl = z
  .string('URL must be text')
  .trim()
  .min(1, 'URL is required')
  .max(MAX_WEBHOOK_URL_LENGTH, `URL must be at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString('en-US')} characters`)
  .refine((s) => !CONTROL_OR_SPACE.test(s), 'URL must not contain spaces or control characters')
  .refine((s) => /^https?:\/\//i.test(s), 'URL must start with https:// or http://')
  .refine((s) => URL.canParse(s), 'URL is not a valid web address');

/** What the endpoint is for, trimmed; '' for none. */
export const webhookDescription = z
  .string('Description must be text')
  .trim()
  .max(MAX_WEBHOOK_DESCRIPTION_LENGTH, `Description must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`)
  .refine((s) => !CONTROL_OR_BROKEN.test(s), 'Description must not contain control characters');

/** The event types an endpoint receives: at least one, each once. */
export const webhookEventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, 'Events must be event types of the list'), 'Events must be a list of event types')
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length, `Events must list at most ${WEBHOOK_EVENT_TYPES.length} event types`)
  .refine((types) => new Set(types).size === types.length, 'Events must list each event type once');

/** 'enabled' receives its events; 'disabled' receives none (turned off, or failing for 3 days). */
export const webhookEndpointStatuses = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof webhookEndpointStatuses)[number];

/** An endpoint as the webhooks screen lists it; its secret is never shown again after its creation. */
export const webhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  /** '' when none was given. */
  description: z.string(),
  /** In the order of WEBHOOK_EVENT_TYPES. */
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  status: z.enum(webhookEndpointStatuses),
  /** Why it is disabled ('Failing for 3 days', 'Disabled by {name}'); null while enabled. */
  disabled_reason: z.string().nullable(),
  /** ISO 8601 UTC: the first failed attempt since its last success; null while it succeeds. */
  failing_since: z.string().nullable(),
  /** ISO 8601 UTC. */
  created_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

/** GET /api/webhooks: the company's endpoints, oldest first. */
export const webhookEndpointList = z.object({ endpoints: z.array(webhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointList>;

/** POST /api/webhooks */
export const createWebhookEndpointBody = z.strictObject({
  url: webhookUrl,
  description: webhookDescription.optional(),
  events: webhookEventTypes,
});
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBody>;

/** The answer to a creation: the endpoint as listed, and its signing secret (`whsec_...`), shown this once. */
export const createWebhookEndpointAnswer = z.object({ endpoint: webhookEndpoint, secret: z.string() });
export type CreateWebhookEndpointAnswer = z.infer<typeof createWebhookEndpointAnswer>;

/**
 * PATCH /api/webhooks/:id: the fields to change. `enabled: true` on a disabled endpoint enables it
 * and clears failing_since and disabled_reason; `enabled: false` disables it ('Disabled by {name}').
 */
export const updateWebhookEndpointBody = z.strictObject({
  url: webhookUrl.optional(),
  description: webhookDescription.optional(),
  events: webhookEventTypes.optional(),
  enabled: z.boolean('Enabled must be true or false').optional(),
});
export type UpdateWebhookEndpointBody = z.infer<typeof updateWebhookEndpointBody>;

/** The answer to a change: the endpoint as listed. */
export const updateWebhookEndpointAnswer = z.object({ endpoint: webhookEndpoint });
export type UpdateWebhookEndpointAnswer = z.infer<typeof updateWebhookEndpointAnswer>;

/** 'pending' waits for its next attempt; 'succeeded' was answered 2xx; 'failed' gave up after its last retry. */
export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** One event's delivery to one endpoint, with its last attempt. */
export const webhookDelivery = z.object({
  id: z.string(),
  /** The event's id (`msg_...`): the `webhook-id` header of every attempt, Resend included. */
  event_id: z.string(),
  /** An event type of WEBHOOK_EVENT_TYPES, or WEBHOOK_TEST_EVENT_TYPE. */
  event_type: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  /** Attempts made so far (0 before the first). */
  attempts: z.number().int(),
  /** The HTTP status of the last answer; null before the first or when none came (timeout, refused connection). */
  last_status_code: z.number().int().nullable(),
  /** How long the last attempt took, in milliseconds; null before the first. */
  last_duration_ms: z.number().int().nullable(),
  /** Why the last attempt failed ('Answered 500', 'No answer within 10 seconds'); null when it succeeded or before the first. */
  last_error: z.string().nullable(),
  /** ISO 8601 UTC: when the next attempt is due; null once succeeded or failed. */
  next_attempt_at: z.string().nullable(),
  /** ISO 8601 UTC: when the event happened. */
  created_at: z.string(),
  /** ISO 8601 UTC; null before the first attempt. */
  last_attempt_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** GET /api/webhooks/:id/deliveries: the endpoint's last WEBHOOK_DELIVERY_LOG_SIZE deliveries, newest first. */
export const webhookDeliveryList = z.object({ deliveries: z.array(webhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryList>;

/** POST /api/webhooks/:id/deliveries/:deliveryId/resend */
export const webhookDeliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });

/** The answer to a Resend or a test event: the delivery, due now. */
export const webhookDeliveryAnswer = z.object({ delivery: webhookDelivery });
export type WebhookDeliveryAnswer = z.infer<typeof webhookDeliveryAnswer>;
