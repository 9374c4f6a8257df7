/** POST /api/units: Add Unit with its inventory (admins and owners), within the plan's unit limit. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { unit, type CreateUnitBody, type Unit } from '../../../../common/contracts/stock';
import { toastWarning } from '../../../components/ui/toasts';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';

/**
 * Creates the unit; `skipped` says which rows of the form were left out (stock-rows.ts), for the toast.
 * @throws ApiError, FORBIDDEN for members, LIMIT_REACHED at the plan's limit
 */
export function createUnit({ body }: { body: CreateUnitBody; skipped?: string }): Promise<Unit> {
  return apiFetch('/api/units', { method: 'POST', idempotencyKey: true, body, schema: unit });
}

/**
 * Add Unit mutation: a success, or what was saved and what was skipped ('Unit added. 1 row
 * skipped: quantity must be at least 1'); at the plan's limit the user is taken to the plans
 * (docs/product.md "Messages").
 */
export function useCreateUnit() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: createUnit,
    onSuccess: async (_unit, { skipped }) => {
      if (skipped) toastWarning(`Unit added. ${skipped}`);
      else toast.success('Unit and inventory added successfully');
      await invalidateStock(queryClient);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, 'Failed to save unit'));
      if (hasErrorCode(error, 'LIMIT_REACHED')) void navigate('/subscription');
    },
  });
}
