/** Loads the tenant's items for a stock form's pickers, then renders the form part that needs them. */
import type { ReactNode } from 'react';
import type { Item } from '../../../../common/contracts/stock';
import { LoadError } from '../../../components/ui/LoadError';
import { Spinner } from '../../../components/ui/Spinner';
import { useItems } from '../api/get-items';

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
