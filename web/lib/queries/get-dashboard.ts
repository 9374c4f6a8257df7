/** GET /api/dashboard: stats, stock alerts and recent activity in one answer. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardResponse, type DashboardResponse } from '../../../common/contracts/dashboard';
import { apiFetch } from '../api-fetch';

/** Fetches the dashboard. @throws ApiError, NO_TENANT (409) before onboarding created the company. */
export function getDashboard(signal?: AbortSignal): Promise<DashboardResponse> {
  return apiFetch('/api/dashboard', { schema: dashboardResponse, signal });
}

/** The dashboard; every stock change, a new item and the end of onboarding invalidate it. */
export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: ({ signal }) => getDashboard(signal),
  meta: { errorMessage: 'Failed to load dashboard data' },
});

/** The dashboard. */
export function useDashboard() {
  return useQuery(dashboardQuery);
}
