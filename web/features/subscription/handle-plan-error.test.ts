import { beforeEach, describe, expect, it, vi } from 'vitest';
import toast from 'react-hot-toast';
import { ApiError } from '../../lib/api-error';
import { handlePlanError, type AppNavigation } from './handle-plan-error';

vi.mock('react-hot-toast', () => ({ default: { error: vi.fn() } }));

const limitReached = new ApiError(
  'LIMIT_REACHED',
  'You have reached the maximum number of garages for your plan. Please upgrade to add more.',
  402,
);
const trialExpired = new ApiError('SUBSCRIPTION_REQUIRED', 'Your trial has expired. Please subscribe to continue.', 402);

function at(pathname: string) {
  return { pathname: () => pathname, navigate: vi.fn<AppNavigation['navigate']>() } satisfies AppNavigation;
}

describe('handlePlanError', () => {
  beforeEach(() => vi.mocked(toast.error).mockClear());

  it("shows the server's limit message and goes to the plans", () => {
    const navigation = at('/garages');
    expect(handlePlanError(limitReached, navigation)).toBe(true);
    expect(toast.error).toHaveBeenCalledWith(limitReached.message, { id: limitReached.message });
    expect(navigation.navigate).toHaveBeenCalledWith('/subscription');
  });

  it('tells that the trial has expired and goes to the plans', () => {
    const navigation = at('/items');
    expect(handlePlanError(trialExpired, navigation)).toBe(true);
    expect(toast.error).toHaveBeenCalledWith('Your trial has expired. Please subscribe to continue.', expect.anything());
    expect(navigation.navigate).toHaveBeenCalledWith('/subscription');
  });

  it('stays quiet about the expired trial on the plans screen, and does not navigate there again', () => {
    const navigation = at('/subscription');
    expect(handlePlanError(trialExpired, navigation)).toBe(true);
    expect(toast.error).not.toHaveBeenCalled();
    expect(navigation.navigate).not.toHaveBeenCalled();
  });

  it('only navigates when the caller has shown its own toast', () => {
    const navigation = at('/add-unit');
    expect(handlePlanError(limitReached, navigation, { toast: false })).toBe(true);
    expect(toast.error).not.toHaveBeenCalled();
    expect(navigation.navigate).toHaveBeenCalledWith('/subscription');
  });

  it('leaves every other error to the caller', () => {
    const navigation = at('/units');
    for (const error of [new ApiError('FORBIDDEN', 'No', 403), new ApiError('NETWORK_ERROR', 'Network error.', 0), new Error('boom')]) {
      expect(handlePlanError(error, navigation)).toBe(false);
    }
    expect(toast.error).not.toHaveBeenCalled();
    expect(navigation.navigate).not.toHaveBeenCalled();
  });
});
