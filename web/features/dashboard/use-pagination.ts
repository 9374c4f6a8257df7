/** Client-side paging of a list, a fixed number of entries per page. */
import { useState } from 'react';

/** Entries per page on the dashboard (docs/product.md "Constants and limits"). */
export const DASHBOARD_PAGE_SIZE = 5;

export interface Pagination<T> {
  /** 1-based, always within 1..pageCount. */
  page: number;
  /** At least 1, so an empty list reads 'Page 1 of 1'. */
  pageCount: number;
  pageItems: T[];
  setPage: (page: number) => void;
}

/** Pages `items`; the page stays in range when the list shrinks after a refetch. */
export function usePagination<T>(items: readonly T[], pageSize = DASHBOARD_PAGE_SIZE): Pagination<T> {
  const [requestedPage, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const page = Math.min(Math.max(requestedPage, 1), pageCount);
  const start = (page - 1) * pageSize;
  return { page, pageCount, pageItems: items.slice(start, start + pageSize), setPage };
}
