/**
 * What to refresh after a stock change, or a change of a property's stays. One stock change shows
 * up in several places (a unit's page, the units list, the garages' stock, the dashboard's figures
 * and alerts, the forecast and the pick lists), so every change refreshes all of them; stays
 * change what the forecast, the pick lists and the dashboard's forecast card say.
 */
import type { QueryClient } from '@tanstack/react-query';
import { dashboardQuery } from './queries/get-dashboard';
import { forecastKey } from './queries/forecast-key';
import { garagesQuery } from './queries/get-garages';
import { unitsQuery } from './queries/get-units';

/** Marks every stock view stale (the units list's key also covers each unit's); the ones on screen refetch at once. */
export async function invalidateStock(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: unitsQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: garagesQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: forecastKey }),
  ]);
}

/**
 * Marks stale what a property's stays feed (after its calendar link was saved or read): the
 * property's page (its calendar, upcoming stays and forecast line), the forecast, the pick lists
 * and the dashboard's forecast card.
 */
export async function invalidateStays(queryClient: QueryClient, unitQueryKey: readonly unknown[]): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: unitQueryKey }),
    queryClient.invalidateQueries({ queryKey: forecastKey }),
    queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
  ]);
}
