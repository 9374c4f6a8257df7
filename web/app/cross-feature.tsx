/**
 * Parts of one feature shown on another feature's screen. Features never import each other
 * (decision 018): the app joins them here, giving each to its screen as a prop, and each part's code
 * loads when it is first shown.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const LazyImportListings = lazy(() => import('../features/listings-import/ImportListingsDialog').then((m) => ({ default: m.ImportListingsDialog })));
const LazyUpcomingStays = lazy(() => import('../features/listings-import/UpcomingStays').then((m) => ({ default: m.UpcomingStays })));

/** The Import Listings dialog (web/features/listings-import), loaded when first opened. */
export function ImportListingsDialog(props: ComponentProps<typeof LazyImportListings>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <LazyImportListings {...props} />
    </Suspense>
  );
}

/** "Upcoming stays" of a unit, from every source (web/features/listings-import). */
export function UpcomingStays(props: ComponentProps<typeof LazyUpcomingStays>) {
  return (
    <Suspense fallback={null}>
      <LazyUpcomingStays {...props} />
    </Suspense>
  );
}
