/** GET /api/reports/status: stock rows by status per unit and per garage, for the status charts. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { statusReport, type StatusReport } from '../../../../common/contracts/reports';
import { apiFetch } from '../../../lib/api-fetch';

/** Fetches the status bars. @throws ApiError, FORBIDDEN (403) when the plan has no cost reports */
export function getStatusReport(signal?: AbortSignal): Promise<StatusReport> {
  return apiFetch('/api/reports/status', { schema: statusReport, signal });
}

/** What a failure says (docs/product.md "Messages"). */
export const STATUS_FAILURE_MESSAGE = 'Failed to fetch report data';

export const statusReportQuery = queryOptions({
  queryKey: ['reports', 'status'],
  queryFn: ({ signal }) => getStatusReport(signal),
  meta: { errorMessage: STATUS_FAILURE_MESSAGE },
});

/** The units' and garages' status bars. */
export function useStatusReport() {
  return useQuery(statusReportQuery);
}
