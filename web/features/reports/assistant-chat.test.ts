import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { assistantErrorMessage, csvFileName, dayOptions, defaultRequest, limitOptions, requestText } from './assistant-chat';

describe('report assistant', () => {
  it('offers the time ranges and record counts of docs/product.md "Constants and limits", 7 days and 50 records first chosen', () => {
    expect(dayOptions.map((o) => o.value)).toEqual([7, 14, 30, 90]);
    expect(limitOptions.map((o) => o.value)).toEqual([25, 50, 100, 200]);
    expect(defaultRequest).toEqual({ type: 'summary', days: 7, limit: 50 });
  });

  it("repeats the request as the user's message", () => {
    expect(requestText({ type: 'expenses', days: 30, limit: 100 })).toBe('Supply Cost Analysis for the last 30 days (up to 100 records)');
  });

  it("names the CSV file after the browser's today", () => {
    expect(csvFileName(new Date(2025, 2, 9, 23, 30))).toBe('inventory_report_2025-03-09.csv');
  });

  it("tells plan refusals by the server's reason, anything else by the message catalogue's text", () => {
    const forbidden = new ApiError('FORBIDDEN', 'Your Starter plan does not include this feature. Please upgrade to use it.', 403);
    expect(assistantErrorMessage(forbidden)).toBe(forbidden.message);
    const expired = new ApiError('SUBSCRIPTION_REQUIRED', 'Your trial has expired. Please subscribe to continue.', 402);
    expect(assistantErrorMessage(expired)).toBe(expired.message);
    for (const error of [
      new ApiError('INTERNAL', 'Something went wrong. Please try again.', 500),
      new ApiError('NETWORK_ERROR', 'Network error.', 0),
      new ApiError('VALIDATION', 'Invalid input', 400),
      new Error('boom'),
    ]) {
      expect(assistantErrorMessage(error)).toBe('Failed to fetch AI response.');
    }
  });
});
