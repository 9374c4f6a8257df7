/** The Add and Edit endpoint form: the contract's checks, the events' checkboxes, the server's field refusals. */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../common/contracts/webhook-events';
import { createWebhookEndpointBody } from '../../../common/contracts/webhooks';
import { ApiError } from '../../lib/api-error';
import { allEventsState, emptyEndpointDraft, endpointDraftOf, serverFieldErrors, toggleEvent } from './endpoint-form';

/** The parsed body, or each field's first message: the one the form shows under it. */
const messagesOf = (draft: unknown) => {
  const parsed = createWebhookEndpointBody.safeParse(draft);
  if (parsed.success) return parsed.data;
  const first = new Map<string, string>();
  for (const issue of parsed.error.issues) if (!first.has(String(issue.path[0]))) first.set(String(issue.path[0]), issue.message);
  return [...first].map(([field, message]) => `${field}: ${message}`);
};

describe('the form’s drafts', () => {
  it('start a new endpoint with every event, and an edit with the endpoint’s own', () => {
    expect(emptyEndpointDraft).toEqual({ url: '', description: '', events: [...WEBHOOK_EVENT_TYPES] });
    expect(endpointDraftOf({ url: 'https://example.com/h', description: '', events: ['stock.low'] })).toEqual({
      url: 'https://example.com/h',
      description: '',
      events: ['stock.low'],
    });
  });

  it('are checked with the contract’s messages before anything is sent', () => {
    expect(messagesOf({ ...emptyEndpointDraft, url: ' https://example.com/h ', description: ' Cleaning app ' })).toEqual({
      url: 'https://example.com/h',
      description: 'Cleaning app',
      events: [...WEBHOOK_EVENT_TYPES],
    });
    expect(messagesOf(emptyEndpointDraft)).toEqual(['url: URL is required']);
    expect(messagesOf({ ...emptyEndpointDraft, url: 'ftp://example.com' })).toEqual(['url: URL must start with https:// or http://']);
    expect(messagesOf({ url: 'https://example.com/h', description: '', events: [] })).toEqual(['events: Choose at least one event']);
  });
});

describe('the events’ checkboxes', () => {
  it('tell all, some or none for the All events box', () => {
    expect(allEventsState([...WEBHOOK_EVENT_TYPES])).toBe('all');
    expect(allEventsState(['stock.low'])).toBe('some');
    expect(allEventsState([])).toBe('none');
  });

  it('add and remove one event, keeping the screen’s order', () => {
    expect(toggleEvent(['stay.created'], 'stock.low', true)).toEqual(['stock.low', 'stay.created']);
    expect(toggleEvent(['stock.low', 'stay.created'], 'stock.low', false)).toEqual(['stay.created']);
    expect(toggleEvent(['stock.low'], 'stock.low', true)).toEqual(['stock.low']);
  });
});

describe('serverFieldErrors', () => {
  it('puts a 400’s field issues under their fields, the first of each', () => {
    const refused = new ApiError('VALIDATION', 'URL must point to a public address', 400, [
      { path: ['url'], message: 'URL must point to a public address' },
      { path: ['url'], message: 'second' },
      { path: ['events', 0], message: 'Events must be event types of the list' },
      { path: ['other'], message: 'ignored' },
    ]);
    expect(serverFieldErrors(refused)).toEqual({ url: 'URL must point to a public address', events: 'Events must be event types of the list' });
  });

  it('puts a 400 without issues under the field its message names first', () => {
    expect(serverFieldErrors(new ApiError('VALIDATION', 'URL must point to a public address', 400))).toEqual({ url: 'URL must point to a public address' });
    expect(serverFieldErrors(new ApiError('VALIDATION', 'Events must be event types of the list', 400))).toEqual({ events: 'Events must be event types of the list' });
    expect(serverFieldErrors(new ApiError('VALIDATION', 'URLs of this kind are refused', 400))).toEqual({ url: 'URLs of this kind are refused' });
    expect(serverFieldErrors(new ApiError('VALIDATION', 'Invalid request', 400))).toEqual({});
  });

  it('names no field for other refusals', () => {
    expect(serverFieldErrors(new ApiError('CONFLICT', 'URL is already an endpoint of your company', 409))).toEqual({});
    expect(serverFieldErrors(new ApiError('FORBIDDEN', 'Only an admin or owner of your company can do this.', 403, [{ path: ['url'], message: 'x' }]))).toEqual({});
    expect(serverFieldErrors(new Error('boom'))).toEqual({});
  });
});
