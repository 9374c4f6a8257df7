/**
 * GET /api/forecast/summary: the dashboard card "Runs out before a check-in". Its code loads after
 * the dashboard's first paint (decision 016); its contract is written with zod/mini, as the
 * dashboard's own.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { forecastSummary, type ForecastSummary } from '../../../../common/contracts/forecast-summary';
import { apiFetch } from '../../../lib/api-fetch';
import { forecastKey } from '../../../lib/queries/forecast-key';

/** Fetches the summary. @throws ApiError */
export function getForecastSummary(signal?: AbortSignal): Promise<ForecastSummary> {
  return apiFetch('/api/forecast/summary', { schema: forecastSummary, signal });
}

/** The summary, under the forecast's key: every stock change refreshes it. */
export const forecastSummaryQuery = queryOptions({
  queryKey: [...forecastKey, 'summary'],
  queryFn: ({ signal }) => getForecastSummary(signal),
  meta: { errorMessage: 'Failed to load the forecast' },
});

/** The summary (the dashboard card). */
export function useForecastSummary() {
  return useQuery(forecastSummaryQuery);
}
