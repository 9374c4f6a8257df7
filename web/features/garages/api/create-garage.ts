/**
 * POST /api/garages: a garage with its initial inventory in one transaction (admins and owners),
 * within the plan's garage limit.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { garage, type CreateGarageBody, type Garage } from '../../../../common/contracts/stock';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/** Creates the garage. @throws ApiError, FORBIDDEN for members, LIMIT_REACHED at the plan's limit */
export function createGarage(body: CreateGarageBody): Promise<Garage> {
  return apiFetch('/api/garages', { method: 'POST', body, schema: garage });
}

/** Add Garage mutation; at the plan's limit the user is taken to the plans (docs/product.md "Messages"). */
export function useCreateGarage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: createGarage,
    onSuccess: async () => {
      toast.success('Garage and inventory added successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to add garage'));
      if (hasErrorCode(error, 'LIMIT_REACHED')) void navigate('/subscription');
    },
  });
}
