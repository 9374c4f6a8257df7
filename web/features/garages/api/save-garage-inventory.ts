/**
 * PUT /api/garages/:id/inventory ("Save Inventory"): the garage's stock becomes exactly these
 * lines; items left out are removed. Each change is recorded as a stocktake in the ledger.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { garage, type Garage, type GarageInventoryBody } from '../../../../common/contracts/stock';
import { actionErrorMessage } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/** Replaces the garage's stock. @throws ApiError, 404 for an unknown garage or item */
export function saveGarageInventory({ id, body }: { id: string; body: GarageInventoryBody }): Promise<Garage> {
  return apiFetch(`/api/garages/${encodeURIComponent(id)}/inventory`, { method: 'PUT', body, schema: garage });
}

/** Save Inventory mutation. */
export function useSaveGarageInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGarageInventory,
    onSuccess: async () => {
      toast.success('Inventory updated successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to update inventory')),
  });
}
