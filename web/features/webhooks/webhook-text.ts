/**
 * The Webhooks screen's wording (docs/product.md "Screens: Webhooks"): an endpoint's events and
 * status, a delivery's event, status line and facts, and the outcome of Send test event and Resend. Times
 * are left to the screen (formatDateTime), so each text here reads the same in every zone.
 */
import { grouped } from '../../../common/contracts/fields';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE, webhookEventNames, type WebhookEventType } from '../../../common/contracts/webhook-events';
import type { WebhookDelivery, WebhookEndpoint } from '../../../common/contracts/webhooks';

/** Shown instead of the list of names when an endpoint receives every event type. */
export const ALL_EVENTS_TEXT = 'All events';

function isEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** A delivery's event as named on screen: 'Stock turns low', 'Test event', or the type itself for one this screen does not know. */
export function eventTypeName(type: string): string {
  if (isEventType(type)) return webhookEventNames[type];
  return type === WEBHOOK_TEST_EVENT_TYPE ? 'Test event' : type;
}

/** The events an endpoint receives, as listed under it: ['All events'] when it has every type, else their names in the screen's order. */
export function endpointEventNames(events: readonly WebhookEventType[]): string[] {
  if (WEBHOOK_EVENT_TYPES.every((type) => events.includes(type))) return [ALL_EVENTS_TEXT];
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)).map((type) => webhookEventNames[type]);
}

/**
 * An endpoint's status as shown: 'Enabled', or 'Disabled' with the server's reason beside it
 * ('Failing for 3 days', 'Disabled by Ana'; null when it gave none).
 */
export function endpointStatus(endpoint: Pick<WebhookEndpoint, 'status' | 'disabled_reason'>): { label: 'Enabled' | 'Disabled'; reason: string | null } {
  if (endpoint.status === 'enabled') return { label: 'Enabled', reason: null };
  return { label: 'Disabled', reason: endpoint.disabled_reason };
}

type DeliveryOutcome = Pick<WebhookDelivery, 'status' | 'attempts' | 'last_status_code'>;

/** The last answer's status code as shown: 'HTTP 503', or 'no answer' when none came (timeout, refused connection). */
function answerText(code: number | null): string {
  return code === null ? 'no answer' : `HTTP ${code}`;
}

/**
 * A delivery's status line: 'Succeeded · HTTP 200', 'Failed · HTTP 500', 'Failed · no answer',
 * 'Pending' before its first attempt, 'Pending · HTTP 503' while it waits for a retry.
 */
export function deliveryStatusText(delivery: DeliveryOutcome): string {
  switch (delivery.status) {
    case 'succeeded':
      return `Succeeded · ${answerText(delivery.last_status_code)}`;
    case 'failed':
      return `Failed · ${answerText(delivery.last_status_code)}`;
    case 'pending':
      return delivery.attempts === 0 ? 'Pending' : `Pending · ${answerText(delivery.last_status_code)}`;
  }
}

/** '1 attempt', '3 attempts', 'Not tried yet'. */
export function attemptsText(attempts: number): string {
  if (attempts === 0) return 'Not tried yet';
  return attempts === 1 ? '1 attempt' : `${grouped(attempts)} attempts`;
}

/** How long the last attempt took: '86 ms', '10,000 ms'; null before the first attempt. */
export function durationText(ms: number | null): string | null {
  return ms === null ? null : `${grouped(ms)} ms`;
}

/** How a toast shows the outcome of an attempt made at once: Send test event, Resend. */
export type AttemptTone = 'success' | 'error' | 'info';

/** The words of each kind of attempt made at once, around its answer or reason. */
const ATTEMPT_WORDS = {
  test: { delivered: 'Test event delivered', refused: 'Test event not delivered', waiting: 'Test event sent' },
  resend: { delivered: 'Delivered again', refused: 'Resent, not delivered', waiting: 'Resent' },
} as const;

/**
 * The toast after "Send test event" or "Resend", from the delivery the server answered with once
 * its attempt was made: delivered (with the status code and duration), refused (with the reason;
 * 'yet' when it will be retried), or, should the attempt not have been made, where its outcome
 * will show.
 */
export function attemptMessage(
  kind: keyof typeof ATTEMPT_WORDS,
  delivery: Pick<WebhookDelivery, 'status' | 'attempts' | 'last_status_code' | 'last_duration_ms' | 'last_error'>,
): { tone: AttemptTone; text: string } {
  const words = ATTEMPT_WORDS[kind];
  const took = durationText(delivery.last_duration_ms);
  const reason = delivery.last_error ?? answerText(delivery.last_status_code);
  switch (delivery.status) {
    case 'succeeded':
      return { tone: 'success', text: `${words.delivered}: ${answerText(delivery.last_status_code)}${took ? ` in ${took}` : ''}` };
    case 'failed':
      return { tone: 'error', text: `${words.refused}: ${reason}` };
    case 'pending':
      return delivery.attempts === 0
        ? { tone: 'info', text: `${words.waiting}: its outcome shows in the delivery log` }
        : { tone: 'error', text: `${words.refused} yet: ${reason}. It will be tried again.` };
  }
}
