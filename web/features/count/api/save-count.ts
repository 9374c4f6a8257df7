/**
 * POST /api/garages/:id/count and POST /api/units/:id/count: the counted lines become the stock
 * of the place, one `count` movement per changed row, all or none (docs/product.md "Screens: Count").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { countResult, type CountBody, type CountResult } from '../../../../common/contracts/count';
import { apiFetch } from '../../../lib/api-fetch';
import { invalidateStock } from '../../../lib/stock-cache';
import type { CountPlace } from '../count-draft';

/**
 * Saves a count.
 * @throws ApiError: 404 for an unknown place or item; CONFLICT with one issue per line
 *   (path ['lines', i, 'expected']) whose stock moved since it was counted, nothing saved.
 */
export function saveCount({ place, body }: { place: CountPlace; body: CountBody }): Promise<CountResult> {
  const base = place.kind === 'garage' ? '/api/garages' : '/api/units';
  return apiFetch(`${base}/${encodeURIComponent(place.id)}/count`, { method: 'POST', idempotencyKey: true, body, schema: countResult });
}

/** The save mutation; every stock view refreshes after it, saved or refused (a refusal means stock moved). */
export function useSaveCount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveCount, onSettled: () => invalidateStock(queryClient) });
}
