/** The app root: data cache, toasts and the router. */
import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'react-hot-toast';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

/** Renders the whole app. */
export function App() {
  const [router] = useState(createAppRouter);
  const [queryClient] = useState(() =>
    createQueryClient({ pathname: () => router.state.location.pathname, navigate: (to) => void router.navigate(to) }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/* SPEC.md §9 durations; react-hot-toast keeps at most 20 toasts by default. */}
      <Toaster
        position="top-center"
        toastOptions={{ duration: 4000, success: { duration: 2000 }, error: { duration: 4000 }, style: { fontSize: '1rem' } }}
      />
    </QueryClientProvider>
  );
}
