/**
 * What to refresh after a stock change. One stock change shows up in several places (a unit's
 * page, the units list, the garages' stock, the dashboard's figures and alerts, the forecast and
 * the pick lists), so every change refreshes all of them.
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
