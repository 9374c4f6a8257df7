/**
 * DELETE /api/items/:id (admins and owners). Refused for the tenant's last item, and for an item
 * that is still in stock somewhere.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { itemsQuery } from '../../../lib/queries/get-items';
import { invalidateStock } from '../../../lib/stock-cache';

/** Deletes the item. @throws ApiError, LAST_RECORD; CONFLICT while it has stock; FORBIDDEN for members */
export async function deleteItem(id: string): Promise<void> {
  await apiFetch(`/api/items/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Delete mutation; the server's reason is shown when it refuses. */
export function useDeleteItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteItem,
    onSuccess: async () => {
      toast.success('Item deleted successfully');
      await Promise.all([queryClient.invalidateQueries({ queryKey: itemsQuery.queryKey }), invalidateStock(queryClient)]);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to delete item')),
  });
}
