/** GET /api/items: the tenant's items, ordered by name. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { item, type Item } from '../../../common/contracts/stock';
import { apiFetch } from '../api-fetch';

/** Fetches the items. @throws ApiError */
export function getItems(signal?: AbortSignal): Promise<Item[]> {
  return apiFetch('/api/items', { schema: z.array(item), signal });
}

/** The items list; the item mutations invalidate it. */
export const itemsQuery = queryOptions({
  queryKey: ['items'],
  queryFn: ({ signal }) => getItems(signal),
  meta: { errorMessage: 'Failed to load data' },
});

/** The tenant's items (the Items screen, and the item pickers of the stock forms). */
export function useItems() {
  return useQuery(itemsQuery);
}
