/**
 * What a stock change and a change of a property's stays mark stale (stock-cache.ts), on a real
 * TanStack Query cache.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { dashboardQuery } from './queries/get-dashboard';
import { forecastKey } from './queries/forecast-key';
import { invalidateStays } from './stock-cache';

describe('invalidateStays', () => {
  it("marks stale the property's page, every forecast query and the dashboard, and nothing else", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const keys = {
      unit: ['units', 'u1'],
      unitCalendar: ['units', 'u1', 'calendar'],
      otherUnit: ['units', 'u2'],
      forecast: [...forecastKey],
      pickList: [...forecastKey, 'pick-list', 'g1', 'default'],
      unitForecast: [...forecastKey, 'unit', 'u1'],
      dashboard: [...dashboardQuery.queryKey],
      items: ['items'],
    };
    for (const key of Object.values(keys)) client.setQueryData(key, { cached: true });
    await invalidateStays(client, keys.unit);
    const stale = Object.entries(keys)
      .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
      .map(([name]) => name);
    expect(stale).toEqual(['unit', 'unitCalendar', 'forecast', 'pickList', 'unitForecast', 'dashboard']);
  });
});
