/**
 * The app's TanStack Query client. Failed queries retry only when the network failed (up to 3
 * times, 1 s apart — docs/product.md "Constants and limits"); a query names its toast text in `meta.errorMessage`. A
 * mutation refused because of the plan takes the user to the plans (handle-plan-error.ts).
 *
 * Offline (docs/decisions/048-offline-reads.md), queries wait for the network instead of failing
 * (TanStack's `onlineManager`), and a query that fails anyway shows no toast: the screens show
 * the data read earlier, or say they have none.
 */
import { MutationCache, onlineManager, QueryCache, QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { handlePlanError, isPlanError, type AppNavigation } from '../features/subscription/handle-plan-error';
import { hasErrorCode, isNetworkError } from '../lib/api-error';
import { recheckSession } from '../lib/auth-client';
import { seedOnlineState } from '../lib/offline-status';
import { subscriptionKey } from '../lib/queries/subscription-key';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Toast shown when the query fails (docs/product.md "Messages"); none when absent. */
      errorMessage?: string;
    };
  }
}

const MAX_RETRIES = 3;
const RETRY_DELAY_MS = 1000;

/** 401 means the session ended: the guards take the user to /login, no toast needed. */
function handleUnauthenticated(error: unknown): boolean {
  if (!hasErrorCode(error, 'UNAUTHENTICATED')) return false;
  recheckSession();
  return true;
}

/**
 * 402 SUBSCRIPTION_REQUIRED means the trial ran out since the status was last read (it is cached
 * for 30 s): reading it again lets the expired-trial gate replace the screen.
 */
function handleSubscriptionRequired(queryClient: QueryClient, error: unknown): boolean {
  if (!hasErrorCode(error, 'SUBSCRIPTION_REQUIRED')) return false;
  void queryClient.invalidateQueries({ queryKey: subscriptionKey });
  return true;
}

/**
 * Creates the query client used by the whole app.
 * @param navigation the app's router, for taking the user to the plans after a plan error.
 */
export function createQueryClient(navigation: AppNavigation): QueryClient {
  seedOnlineState();
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        console.error(error);
        if (handleUnauthenticated(error)) return;
        // Without a company there is nothing to load yet; the screens send the user to onboarding.
        if (hasErrorCode(error, 'NO_TENANT')) return;
        // The gate that follows says what is wrong; a load-failure toast would only add noise.
        if (handleSubscriptionRequired(queryClient, error)) return;
        // An unknown id (e.g. a deleted unit's old link): the screen says "not found" itself.
        if (hasErrorCode(error, 'NOT_FOUND')) return;
        // Offline, the screen shows what it kept or says it has nothing (OfflineNote.tsx).
        if (!onlineManager.isOnline()) return;
        const message = query.meta?.errorMessage;
        // The id keeps one toast per message when several queries or refetches fail together.
        if (message) toast.error(message, { id: message });
      },
    }),
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        console.error(error);
        if (handleUnauthenticated(error)) return;
        handleSubscriptionRequired(queryClient, error);
        if (!isPlanError(error)) return;
        // A mutation with its own onError toasts its failures itself (with the server's message
        // for a 402), so only one without gets the toast here. This handler runs before the
        // mutation's own; waiting for it lets a screen that already went to the plans on its
        // own stay there without a second history entry.
        const toastHere = !mutation.options.onError;
        setTimeout(() => handlePlanError(error, navigation, { toast: toastHere }));
      },
    }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < MAX_RETRIES && isNetworkError(error),
        retryDelay: RETRY_DELAY_MS,
      },
      // A write runs even offline, instead of waiting paused in memory: a stock write is then
      // kept in the outbox (web/lib/stock-write.ts) and any other says the network is gone.
      mutations: { networkMode: 'always' },
    },
  });
  return queryClient;
}
