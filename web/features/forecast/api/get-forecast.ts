/** GET /api/forecast?horizon=: the properties that would start a check-in short, most urgent first. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { forecastAnswer, type ForecastAnswer } from '../../../../common/contracts/forecast';
import { apiFetch } from '../../../lib/api-fetch';
import { forecastKey } from '../../../lib/queries/forecast-key';

/** Fetches the forecast over `horizon` days (3, 7 or 14). @throws ApiError */
export function getForecast(horizon: number, signal?: AbortSignal): Promise<ForecastAnswer> {
  return apiFetch(`/api/forecast?horizon=${horizon}`, { schema: forecastAnswer, signal });
}

/** The forecast over `horizon` days, under the forecast's key: every stock change refreshes it. */
export function forecastQuery(horizon: number) {
  return queryOptions({
    queryKey: [...forecastKey, 'all', horizon],
    queryFn: ({ signal }) => getForecast(horizon, signal),
    meta: { errorMessage: 'Failed to load the forecast' },
  });
}

/** The forecast (the Forecast screen); another horizon keeps the last answer on screen while it loads. */
export function useForecast(horizon: number) {
  return useQuery({ ...forecastQuery(horizon), placeholderData: keepPreviousData });
}
