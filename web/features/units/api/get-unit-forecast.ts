/**
 * GET /api/units/:id/forecast?horizon=7: one property's stays of the next 7 days and, per item,
 * its learned usage per stay and whether a check-in would start short (Unit detail).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_FORECAST_HORIZON, unitForecastAnswer, type UnitForecastAnswer } from '../../../../common/contracts/forecast';
import { apiFetch } from '../../../lib/api-fetch';
import { forecastKey } from '../../../lib/queries/forecast-key';

/** Fetches the forecast of the unit over the default horizon. @throws ApiError, NOT_FOUND */
export function getUnitForecast(unitId: string, signal?: AbortSignal): Promise<UnitForecastAnswer> {
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/forecast?horizon=${DEFAULT_FORECAST_HORIZON}`, { schema: unitForecastAnswer, signal });
}

/**
 * The unit's forecast, under the forecast's key: every stock change refreshes it. No toast on
 * failure: the usage lines are extras of Unit detail, which then shows the stock without them.
 */
export function unitForecastQuery(unitId: string) {
  return queryOptions({
    queryKey: [...forecastKey, 'unit', unitId],
    queryFn: ({ signal }) => getUnitForecast(unitId, signal),
  });
}

/** The unit's forecast (Unit detail). */
export function useUnitForecast(unitId: string) {
  return useQuery(unitForecastQuery(unitId));
}
