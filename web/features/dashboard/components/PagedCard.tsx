/** A dashboard card listing entries five at a time, with Previous / Next and 'Page X of Y'. */
import { useId, type ReactNode } from 'react';
import { Card } from '../../../components/ui/Card';
import { Pager } from '../../../components/ui/Pager';
import { usePagination } from '../use-pagination';

interface PagedCardProps<T> {
  title: string;
  testId: string;
  items: readonly T[];
  emptyText: string;
  getKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
}

/** Renders the titled card with the current page of `items`, or `emptyText`. */
export function PagedCard<T>({ title, testId, items, emptyText, getKey, renderItem }: PagedCardProps<T>) {
  const headingId = useId();
  const { page, pageCount, pageItems, setPage } = usePagination(items);
  return (
    <Card aria-labelledby={headingId} data-testid={testId} className="flex flex-col gap-3 p-4">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {items.length === 0 ? (
        <p className="py-6 text-center text-base text-slate-500">{emptyText}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {pageItems.map((item) => (
            <li key={getKey(item)}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
      <div className="mt-auto">
        <Pager page={page} pageCount={pageCount} onPageChange={setPage} label={`Pages of ${title}`} />
      </div>
    </Card>
  );
}
