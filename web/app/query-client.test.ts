import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, onlineManager } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError } from '../lib/api-error';
import { createQueryClient } from './query-client';

vi.mock('react-hot-toast', () => ({ default: { error: vi.fn() } }));
// The real auth client needs a browser window.
vi.mock('../lib/auth-client', () => ({ recheckSession: vi.fn() }));

const limitReached = new ApiError('LIMIT_REACHED', 'You have reached the maximum number of units for your plan. Please upgrade to add more.', 402);

/** The app's router reduced to a path that navigation changes. */
function fakeRouter(start: string) {
  let path = start;
  return {
    pathname: () => path,
    navigate: vi.fn((to: string) => {
      path = to;
    }),
  };
}

async function failMutation(client: ReturnType<typeof createQueryClient>, error: unknown, onError?: () => void) {
  const observer = new MutationObserver(client, { mutationFn: () => Promise.reject(error), onError });
  await observer.mutate().catch(() => undefined);
  // The plan error is handled once the mutation's own handlers have run.
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('query client: plan errors of mutations', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('toasts and goes to the plans for a mutation without its own error handler', async () => {
    const router = fakeRouter('/add-unit');
    await failMutation(createQueryClient(router), limitReached);
    expect(toast.error).toHaveBeenCalledWith(limitReached.message, { id: limitReached.message });
    expect(router.navigate).toHaveBeenCalledExactlyOnceWith('/subscription');
  });

  it("leaves the toast to a mutation's own handler and still goes to the plans", async () => {
    const router = fakeRouter('/items');
    const trialExpired = new ApiError('SUBSCRIPTION_REQUIRED', 'Your trial has expired. Please subscribe to continue.', 402);
    await failMutation(createQueryClient(router), trialExpired, () => undefined);
    expect(toast.error).not.toHaveBeenCalled();
    expect(router.navigate).toHaveBeenCalledExactlyOnceWith('/subscription');
  });

  it('does not navigate again when the screen already went to the plans itself', async () => {
    const router = fakeRouter('/garages');
    await failMutation(createQueryClient(router), limitReached, () => router.navigate('/subscription'));
    expect(router.navigate).toHaveBeenCalledExactlyOnceWith('/subscription');
  });

  it('leaves other errors alone', async () => {
    const router = fakeRouter('/garages');
    await failMutation(createQueryClient(router), new ApiError('FORBIDDEN', 'Your role does not allow this action.', 403));
    expect(toast.error).not.toHaveBeenCalled();
    expect(router.navigate).not.toHaveBeenCalled();
  });
});

describe('query client: offline', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    onlineManager.setOnline(true);
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** Fails a units query (even offline: networkMode 'always') with a server error. */
  async function failUnits(client: ReturnType<typeof createQueryClient>) {
    await client
      .fetchQuery({
        queryKey: ['units'],
        queryFn: () => Promise.reject(new ApiError('INTERNAL', 'Something went wrong. Please try again.', 500)),
        meta: { errorMessage: 'Failed to load units' },
        networkMode: 'always',
      })
      .catch(() => undefined);
  }

  it('toasts a failed query online, never offline', async () => {
    const client = createQueryClient(fakeRouter('/units'));
    onlineManager.setOnline(false);
    await failUnits(client);
    expect(toast.error).not.toHaveBeenCalled();
    onlineManager.setOnline(true);
    await failUnits(client);
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Failed to load units', { id: 'Failed to load units' });
  });

  it('starts offline when the browser says it has no network', () => {
    vi.stubGlobal('navigator', { onLine: false });
    createQueryClient(fakeRouter('/units'));
    expect(onlineManager.isOnline()).toBe(false);
  });
});
