/**
 * The app root: the router, the data cache (kept on the device for offline reading: OfflineCache),
 * the outbox of stock changes kept on the phone (OutboxRunner) and toasts.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, useLocation, useNavigate } from 'react-router';
import { dropFirstScreenRequests } from '../lib/first-screen-requests';
import { useFirstScreenSettled } from '../lib/first-screen-settled';
import { useOutboxWanted } from '../lib/outbox/outbox-demand';
import { useAuthState } from '../lib/use-auth-state';
import { AppToaster } from '../components/ui/AppToaster';
import { OfflineCache } from './offline/OfflineCache';
import { createQueryClient } from './query-client';
import { AppRoutes } from './router';

/**
 * The outbox runner, loaded only for a signed-in user, once the first screen has settled or a
 * screen that writes stock has loaded (outbox-demand.ts): the outbox and its IndexedDB code are
 * not part of /login's and the dashboard's first download and do not compete with it (decision
 * 016, first-screen-settled.ts). Code that cannot load (the
 * network gone before it arrived, without the service worker's copy) leaves nothing running
 * rather than breaking the page.
 */
const OutboxRunner = lazy(() =>
  import('./OutboxRunner').then(
    (m) => ({ default: m.OutboxRunner }),
    () => ({ default: () => null }),
  ),
);

/** The data cache, which may move the user (after a plan error), and the screens. */
function Providers() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  // The page's first location has the key 'default'; any move, redirects included, changes it.
  const { key: locationKey } = useLocation();
  useEffect(() => {
    if (locationKey !== 'default') dropFirstScreenRequests();
  }, [locationKey]);
  const signedIn = useAuthState().status === 'signed-in';
  const settled = useFirstScreenSettled();
  const outboxWanted = useOutboxWanted();
  const [queryClient] = useState(() =>
    // BrowserRouter keeps its location in the window's, so the path is read there.
    createQueryClient({ pathname: () => window.location.pathname, navigate: (to) => void navigateRef.current(to) }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <OfflineCache />
      {signedIn && (settled || outboxWanted) && (
        <Suspense fallback={null}>
          <OutboxRunner />
        </Suspense>
      )}
      <AppRoutes />
      <AppToaster />
    </QueryClientProvider>
  );
}

/** Renders the whole app. */
export function App() {
  return (
    <BrowserRouter>
      <Providers />
    </BrowserRouter>
  );
}
