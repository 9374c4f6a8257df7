/**
 * The Add endpoint and Edit endpoint form (docs/product.md "Screens: Webhooks"): its draft, the
 * events' checkboxes with "All events", and the server's field refusals put under their fields.
 * The form is checked with the contract's own schema (createWebhookEndpointBody), so its messages
 * are the server's.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../common/contracts/webhook-events';
import type { CreateWebhookEndpointBody, WebhookEndpoint } from '../../../common/contracts/webhooks';
import { ApiError } from '../../lib/api-error';

/** What the form holds: the URL and description as typed, the chosen event types (the creation body before parsing). */
export type EndpointDraft = CreateWebhookEndpointBody;

export type EndpointField = keyof EndpointDraft;

/** A new endpoint's form: nothing typed, every event chosen (the common case: one receiver for all). */
export const emptyEndpointDraft: EndpointDraft = { url: '', description: '', events: [...WEBHOOK_EVENT_TYPES] };

/** The Edit endpoint form of `endpoint`. */
export function endpointDraftOf(endpoint: Pick<WebhookEndpoint, 'url' | 'description' | 'events'>): EndpointDraft {
  return { url: endpoint.url, description: endpoint.description, events: [...endpoint.events] };
}

/** The "All events" checkbox: checked, unchecked, or partly (mixed) when some are chosen. */
export function allEventsState(events: readonly WebhookEventType[]): 'all' | 'some' | 'none' {
  if (events.length === 0) return 'none';
  return WEBHOOK_EVENT_TYPES.every((type) => events.includes(type)) ? 'all' : 'some';
}

/** The chosen events after one checkbox changed, kept in the screen's order. */
export function toggleEvent(events: readonly WebhookEventType[], type: WebhookEventType, checked: boolean): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((t) => (t === type ? checked : events.includes(t)));
}

/** How each field is named at the start of the server's messages about it ('URL must point to a public address'). */
const FIELD_LABELS: Record<EndpointField, string> = { url: 'URL', description: 'Description', events: 'Event' };
const FIELDS = Object.keys(FIELD_LABELS) as EndpointField[];

/**
 * The server's refusal of a save as messages under the fields it concerns: a 400's `issues` (the
 * first of each field), or, without issues, its message under the field it starts with (the
 * server's messages name their field first, docs/product.md "Validation rules", e.g. a URL whose
 * host is not a public address). Empty for any other refusal, which the toast alone tells.
 */
export function serverFieldErrors(error: unknown): Partial<Record<EndpointField, string>> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const found: Partial<Record<EndpointField, string>> = {};
  if (error.issues.length === 0) {
    const field = FIELDS.find((f) => error.message.startsWith(`${FIELD_LABELS[f]} `) || error.message.startsWith(`${FIELD_LABELS[f]}s `));
    if (field) found[field] = error.message;
    return found;
  }
  for (const issue of error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    if (field && !found[field]) found[field] = issue.message;
  }
  return found;
}
