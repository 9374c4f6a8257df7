/**
 * Cache keys of the stock screens and what to refresh after a change. One stock change shows up
 * in several places (a unit's page, the units list, the garages' stock, the dashboard's figures
 * and alerts), so every change refreshes all of them.
 */
import type { QueryClient } from '@tanstack/react-query';

/** ['items']: the tenant's items. */
export const itemsKey = ['items'] as const;
/** ['garages']: the garages with their stock. */
export const garagesKey = ['garages'] as const;
/** ['units']: the units list; ['units', id] one unit — so invalidating ['units'] covers both. */
export const unitsKey = ['units'] as const;

/** The cache key of one unit. */
export function unitKey(unitId: string) {
  return [...unitsKey, unitId] as const;
}

/** Marks every stock view stale; the ones on screen refetch at once. */
export async function invalidateStock(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    queryClient.invalidateQueries({ queryKey: unitsKey }),
    queryClient.invalidateQueries({ queryKey: garagesKey }),
  ]);
}
