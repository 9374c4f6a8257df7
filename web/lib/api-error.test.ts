import { describe, expect, it } from 'vitest';
import { actionErrorMessage, ApiError } from './api-error';

describe('actionErrorMessage', () => {
  it("prefers the server's reason for a refused request", () => {
    const cases = [
      new ApiError('VALIDATION', 'Please fill out all fields', 400),
      new ApiError('FORBIDDEN', 'Your role does not allow this action.', 403),
      new ApiError('LAST_RECORD', 'You must maintain at least one storage location in your account', 409),
      new ApiError('CONFLICT', 'Not enough stock available in garage', 409),
      new ApiError('LIMIT_REACHED', 'You have reached the maximum number of units for your plan.', 402),
    ];
    for (const error of cases) expect(actionErrorMessage(error, 'Failed to add garage')).toBe(error.message);
  });

  it('falls back to the screen text when there is no usable reason', () => {
    const cases: unknown[] = [
      new ApiError('NETWORK_ERROR', 'Network error.', 0),
      new ApiError('INTERNAL', 'Something went wrong.', 500),
      new ApiError('UNEXPECTED_RESPONSE', 'Something went wrong.', 404),
      new ApiError('UNAUTHENTICATED', 'No authenticated user', 401),
      new Error('boom'),
    ];
    for (const error of cases) expect(actionErrorMessage(error, 'Failed to add garage')).toBe('Failed to add garage');
  });
});
