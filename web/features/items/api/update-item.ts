/** PATCH /api/items/:id: name, category, minimum threshold and count cost of an item (admins and owners). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { item, type Item, type ItemBody } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { itemsQuery } from '../../../lib/queries/get-items';
import { invalidateStock } from '../../../lib/stock-cache';

/** Saves the item. @throws ApiError, 404 for an unknown id, FORBIDDEN for members */
export function updateItem({ id, body }: { id: string; body: ItemBody }): Promise<Item> {
  return apiFetch(`/api/items/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: item });
}

/**
 * Edit Item mutation. Stock rows show the item's name, and its threshold decides their status,
 * so every stock view is refreshed too.
 */
export function useUpdateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateItem,
    onSuccess: async () => {
      toast.success('Item updated successfully');
      await Promise.all([queryClient.invalidateQueries({ queryKey: itemsQuery.queryKey }), invalidateStock(queryClient)]);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to update item')),
  });
}
