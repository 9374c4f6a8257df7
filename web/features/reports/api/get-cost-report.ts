/** GET /api/reports/costs: usage cost per UTC day and per unit for Last Week, Last Month or a custom range. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { costReport, type CostQuery, type CostReport } from '../../../../common/contracts/reports';
import { apiFetch } from '../../../lib/api-fetch';

/**
 * Fetches the cost report of `query`.
 * @throws ApiError, VALIDATION (400) for an incomplete or reversed custom range, FORBIDDEN (403)
 * when the plan has no cost reports, SUBSCRIPTION_REQUIRED (402) after the trial.
 */
export function getCostReport(query: CostQuery, signal?: AbortSignal): Promise<CostReport> {
  const params = new URLSearchParams({ period: query.period });
  if (query.period === 'custom') {
    if (query.start) params.set('start', query.start);
    if (query.end) params.set('end', query.end);
  }
  return apiFetch(`/api/reports/costs?${params.toString()}`, { schema: costReport, signal });
}

/** What a failure says (docs/product.md "Messages"): a custom range is what 'Apply Filter' asked for. */
export function costFailureMessage(query: CostQuery): string {
  return query.period === 'custom' ? 'Failed to apply filter' : 'Failed to fetch cost data';
}

/** The query of one period, cached under ['reports', 'costs', query]. */
export function costReportQuery(query: CostQuery) {
  return queryOptions({
    queryKey: ['reports', 'costs', query],
    queryFn: ({ signal }) => getCostReport(query, signal),
    meta: { errorMessage: costFailureMessage(query) },
  });
}

/** The cost report of `query`. */
export function useCostReport(query: CostQuery) {
  return useQuery(costReportQuery(query));
}
