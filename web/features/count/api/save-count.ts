/**
 * POST /api/garages/:id/count and POST /api/units/:id/count: the counted lines become the stock
 * of the place, one `count` movement per changed row, all or none (docs/product.md "Screens: Count").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { countResult, type CountBody, type CountResult } from '../../../../common/contracts/count';
import { sendStockWrite } from '../../../lib/stock-write';
import { invalidateStock } from '../../../lib/stock-cache';
import type { CountPlace } from '../count-draft';

/**
 * Saves a count, or keeps it on the phone to be sent later.
 * @throws ChangeKept when kept (web/lib/stock-write.ts); ApiError: 404 for an unknown place or item; CONFLICT with one issue per line
 *   (path ['lines', i, 'expected']) whose stock moved since it was counted, nothing saved.
 */
export function saveCount({ place, placeName, body }: { place: CountPlace; placeName: string; body: CountBody }): Promise<CountResult> {
  const base = place.kind === 'garage' ? '/api/garages' : '/api/units';
  const screen = place.kind === 'garage' ? `/garages/${place.id}/count` : `/unit/${place.id}/count`;
  const lines = body.lines.length;
  return sendStockWrite(
    `${base}/${encodeURIComponent(place.id)}/count`,
    { body, schema: countResult },
    { kind: 'count', label: `Count of ${placeName}: ${lines} ${lines === 1 ? 'difference' : 'differences'}`, href: screen },
  );
}

/** The save mutation; every stock view refreshes after it, saved or refused (a refusal means stock moved). */
export function useSaveCount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveCount, onSettled: () => invalidateStock(queryClient) });
}
