/** Loads the tenant's items for a stock form's pickers, then renders the form part that needs them. */
import type { ReactNode } from 'react';
import type { Item } from '../../../common/contracts/stock';
import { useItems } from '../../lib/queries/get-items';
import { LoadError } from '../ui/LoadError';
import { Spinner } from '../ui/Spinner';

/** Renders `children(items)` once loaded; a spinner before, a retry panel after a failure. */
export function WithItems({ children }: { children: (items: Item[]) => ReactNode }) {
  const items = useItems();
  if (items.data) return children(items.data);
  if (items.isError) return <LoadError onRetry={() => void items.refetch()} />;
  return (
    <div className="flex justify-center py-4 text-blue-700">
      <Spinner className="size-6" label="Loading items" />
    </div>
  );
}
