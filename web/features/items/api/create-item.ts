/** POST /api/items: a new item (admins and owners), within the plan's item limit. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { item, type Item, type ItemBody } from '../../../../common/contracts/stock';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { dashboardQuery } from '../../../lib/queries/get-dashboard';
import { itemsQuery } from '../../../lib/queries/get-items';

/** Creates the item. @throws ApiError, FORBIDDEN for members, LIMIT_REACHED at the plan's limit */
export function createItem(body: ItemBody): Promise<Item> {
  return apiFetch('/api/items', { method: 'POST', body, schema: item });
}

/** Add Item mutation; at the plan's limit the user is taken to the plans (docs/product.md "Messages"). */
export function useCreateItem() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: createItem,
    onSuccess: async () => {
      toast.success('Item added successfully');
      await Promise.all([queryClient.invalidateQueries({ queryKey: itemsQuery.queryKey }), queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey })]);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to add item'));
      if (hasErrorCode(error, 'LIMIT_REACHED')) void navigate('/subscription');
    },
  });
}
