/** The Webhooks screen's wording: events, an endpoint's status, a delivery's status line and facts, the toasts of Send test event and Resend. */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../common/contracts/webhook-events';
import type { WebhookDelivery } from '../../../common/contracts/webhooks';
import { attemptMessage, attemptsText, deliveryStatusText, durationText, endpointEventNames, endpointStatus, eventTypeName } from './webhook-text';

const delivery = (changes: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 'd1',
  event_id: 'msg_1',
  event_type: 'stock.low',
  status: 'pending',
  attempts: 0,
  last_status_code: null,
  last_duration_ms: null,
  last_error: null,
  next_attempt_at: '2026-11-28T13:00:00.000Z',
  created_at: '2026-11-28T12:59:00.000Z',
  last_attempt_at: null,
  ...changes,
});

describe('event names', () => {
  it('names each event type as the screen does, the test event too, and shows an unknown type as it is', () => {
    expect(eventTypeName('stock.low')).toBe('Stock turns low');
    expect(eventTypeName('pick_list.delivered')).toBe('A pick list is delivered');
    expect(eventTypeName('webhook.test')).toBe('Test event');
    expect(eventTypeName('stock.vanished')).toBe('stock.vanished');
  });

  it('lists an endpoint’s events in the screen’s order, or says All events', () => {
    expect(endpointEventNames([...WEBHOOK_EVENT_TYPES])).toEqual(['All events']);
    expect(endpointEventNames(['stay.created', 'stock.low'])).toEqual(['Stock turns low', 'A stay is added']);
    expect(endpointEventNames(WEBHOOK_EVENT_TYPES.slice(1))).toHaveLength(WEBHOOK_EVENT_TYPES.length - 1);
  });
});

describe('endpointStatus', () => {
  it('says Enabled, or Disabled with the reason when there is one', () => {
    expect(endpointStatus({ status: 'enabled', disabled_reason: null })).toEqual({ label: 'Enabled', reason: null });
    expect(endpointStatus({ status: 'disabled', disabled_reason: 'Failing for 3 days' })).toEqual({ label: 'Disabled', reason: 'Failing for 3 days' });
    expect(endpointStatus({ status: 'disabled', disabled_reason: 'Disabled by Ana' })).toEqual({ label: 'Disabled', reason: 'Disabled by Ana' });
    expect(endpointStatus({ status: 'disabled', disabled_reason: null })).toEqual({ label: 'Disabled', reason: null });
  });
});

describe('a delivery’s status line and facts', () => {
  it('gives the status with the last answer’s status code, or no answer', () => {
    expect(deliveryStatusText(delivery({ status: 'succeeded', attempts: 1, last_status_code: 200 }))).toBe('Succeeded · HTTP 200');
    expect(deliveryStatusText(delivery({ status: 'failed', attempts: 8, last_status_code: 500 }))).toBe('Failed · HTTP 500');
    expect(deliveryStatusText(delivery({ status: 'failed', attempts: 8, last_status_code: null }))).toBe('Failed · no answer');
    expect(deliveryStatusText(delivery({ status: 'pending', attempts: 0 }))).toBe('Pending');
    expect(deliveryStatusText(delivery({ status: 'pending', attempts: 2, last_status_code: 503 }))).toBe('Pending · HTTP 503');
    expect(deliveryStatusText(delivery({ status: 'pending', attempts: 1, last_status_code: null }))).toBe('Pending · no answer');
  });

  it('counts the attempts and gives the duration in milliseconds', () => {
    expect(attemptsText(0)).toBe('Not tried yet');
    expect(attemptsText(1)).toBe('1 attempt');
    expect(attemptsText(3)).toBe('3 attempts');
    expect(durationText(null)).toBeNull();
    expect(durationText(86)).toBe('86 ms');
    expect(durationText(10_000)).toBe('10,000 ms');
  });
});

describe('attemptMessage', () => {
  it('says the test event or the resent delivery was delivered, with its answer and duration', () => {
    const delivered = delivery({ status: 'succeeded', attempts: 1, last_status_code: 204, last_duration_ms: 42 });
    expect(attemptMessage('test', delivered)).toEqual({ tone: 'success', text: 'Test event delivered: HTTP 204 in 42 ms' });
    expect(attemptMessage('resend', { ...delivered, attempts: 3 })).toEqual({ tone: 'success', text: 'Delivered again: HTTP 204 in 42 ms' });
  });

  it('says why it was not delivered: the server’s reason, else the answer; yet when it will be retried', () => {
    expect(attemptMessage('test', delivery({ status: 'failed', attempts: 1, last_status_code: 500, last_error: 'Answered 500' }))).toEqual({
      tone: 'error',
      text: 'Test event not delivered: Answered 500',
    });
    expect(attemptMessage('test', delivery({ status: 'failed', attempts: 1, last_status_code: 410 }))).toEqual({ tone: 'error', text: 'Test event not delivered: HTTP 410' });
    expect(attemptMessage('test', delivery({ status: 'pending', attempts: 1, last_error: 'No answer within 10 seconds' }))).toEqual({
      tone: 'error',
      text: 'Test event not delivered yet: No answer within 10 seconds. It will be tried again.',
    });
    expect(attemptMessage('resend', delivery({ status: 'pending', attempts: 4, last_status_code: 503, last_error: 'Answered 503' }))).toEqual({
      tone: 'error',
      text: 'Resent, not delivered yet: Answered 503. It will be tried again.',
    });
  });

  it('points to the delivery log when the attempt is still to come', () => {
    expect(attemptMessage('test', delivery({ status: 'pending', attempts: 0 }))).toEqual({ tone: 'info', text: 'Test event sent: its outcome shows in the delivery log' });
    expect(attemptMessage('resend', delivery({ status: 'pending', attempts: 0 }))).toEqual({ tone: 'info', text: 'Resent: its outcome shows in the delivery log' });
  });
});
