/**
 * POST /api/garages: a garage with its initial inventory in one transaction (admins and owners),
 * within the plan's garage limit.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { garage, type CreateGarageBody, type Garage } from '../../../../common/contracts/stock';
import { toastWarning } from '../../../components/ui/toasts';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/**
 * Creates the garage; `skipped` says which rows of the form were left out (stock-rows.ts), for the toast.
 * @throws ApiError, FORBIDDEN for members, LIMIT_REACHED at the plan's limit
 */
export function createGarage({ body }: { body: CreateGarageBody; skipped?: string }): Promise<Garage> {
  return apiFetch('/api/garages', { method: 'POST', idempotencyKey: true, body, schema: garage });
}

/**
 * Add Garage mutation: a success, or what was saved and what was skipped ('Garage added. 1 row
 * skipped: quantity must be at least 1'); at the plan's limit the user is taken to the plans
 * (docs/product.md "Messages").
 */
export function useCreateGarage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: createGarage,
    onSuccess: async (_garage, { skipped }) => {
      if (skipped) toastWarning(`Garage added. ${skipped}`);
      else toast.success('Garage and inventory added successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to add garage'));
      if (hasErrorCode(error, 'LIMIT_REACHED')) void navigate('/subscription');
    },
  });
}
