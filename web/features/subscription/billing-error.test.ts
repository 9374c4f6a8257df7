import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { billingErrorMessage } from './billing-error';

const fallback = 'Failed to start checkout process';

describe('billingErrorMessage', () => {
  it("shows the server's reason", () => {
    const cases = [
      new ApiError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this server', 503),
      new ApiError('CONFLICT', 'No valid price ID found for Starter', 409),
      new ApiError('CONFLICT', 'There is no subscription to manage yet. Choose a plan first.', 409),
      new ApiError('FORBIDDEN', 'Your role does not allow this action.', 403),
      new ApiError('PROVIDER_ERROR', 'Failed to create checkout session', 502),
    ];
    for (const error of cases) expect(billingErrorMessage(error, fallback)).toBe(error.message);
  });

  it('falls back to the screen text without a usable reason', () => {
    const cases: unknown[] = [
      new ApiError('NETWORK_ERROR', 'Network error.', 0),
      new ApiError('INTERNAL', 'Something went wrong.', 500),
      new ApiError('UNEXPECTED_RESPONSE', 'Something went wrong.', 200),
      new ApiError('UNAUTHENTICATED', 'No authenticated user', 401),
      new Error('boom'),
    ];
    for (const error of cases) expect(billingErrorMessage(error, fallback)).toBe(fallback);
  });
});
