/** Previous / Next buttons with "Page X of Y" for a list shown a page at a time. */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './Button';

interface PagerProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** The navigation's accessible name: one per pager on a screen (two navigations of one name are ambiguous landmarks). */
  label?: string;
}

/** Renders the pager; the buttons are disabled at either end. */
export function Pager({ page, pageCount, onPageChange, label = 'Pagination' }: PagerProps) {
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 border-t border-slate-100 pt-3">
      <Button variant="secondary" onClick={() => onPageChange(page - 1)} disabled={page <= 1} className="px-3">
        <ChevronLeft className="size-4" aria-hidden="true" />
        Previous
      </Button>
      <span className="text-sm whitespace-nowrap text-slate-600">{`Page ${page} of ${pageCount}`}</span>
      <Button variant="secondary" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount} className="px-3">
        Next
        <ChevronRight className="size-4" aria-hidden="true" />
      </Button>
    </nav>
  );
}
