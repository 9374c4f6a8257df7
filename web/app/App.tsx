/** The app root: the router, the data cache and toasts. */
import { useEffect, useRef, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'react-hot-toast';
import { BrowserRouter, useLocation, useNavigate } from 'react-router';
import { dropFirstScreenRequests } from '../lib/first-screen-requests';
import { createQueryClient } from './query-client';
import { AppRoutes } from './router';

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
  const [queryClient] = useState(() =>
    // BrowserRouter keeps its location in the window's, so the path is read there.
    createQueryClient({ pathname: () => window.location.pathname, navigate: (to) => void navigateRef.current(to) }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
      {/* The product's toast durations: 4 s, successes 2 s; the library keeps at most 20. */}
      <Toaster
        position="top-center"
        toastOptions={{ duration: 4000, success: { duration: 2000 }, error: { duration: 4000 }, style: { fontSize: '1rem' } }}
      />
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
