/** Which queries are kept on the device for offline reading, and whose the kept data is. */
import { describe, expect, it } from 'vitest';
import { forecastSummaryQuery } from '../../features/dashboard/api/get-forecast-summary';
import { forecastQuery } from '../../features/forecast/api/get-forecast';
import { orderForecastQuery } from '../../features/forecast/api/get-order-forecast';
import { pickListQuery } from '../../features/forecast/api/get-pick-list';
import { connectionQuery } from '../../features/listings-import/api';
import { statusReportQuery } from '../../features/reports/api/get-status-report';
import { subscriptionTiersQuery } from '../../features/subscription/api/get-subscription-tiers';
import { subscriptionUsageQuery } from '../../features/subscription/api/get-subscription-usage';
import { unitCalendarQuery } from '../../features/units/api/get-unit-calendar';
import { unitForecastQuery } from '../../features/units/api/get-unit-forecast';
import { teamQuery } from '../../features/users/api/team';
import { dashboardQuery } from '../../lib/queries/get-dashboard';
import { garagesQuery } from '../../lib/queries/get-garages';
import { itemsQuery } from '../../lib/queries/get-items';
import { meQuery } from '../../lib/queries/get-me';
import { onboardingStatusQuery } from '../../lib/queries/get-onboarding-status';
import { subscriptionStatusQuery } from '../../lib/queries/get-subscription-status';
import { unitQuery } from '../../lib/queries/get-unit';
import { unitsQuery } from '../../lib/queries/get-units';
import { isPersistedQueryKey, offlineCacheBuster, OFFLINE_CACHE_MAX_AGE_MS, PERSISTED_QUERY_PREFIXES, restoredForAnotherCompany } from '../../lib/offline-cache/offline-cache-rules';

describe('isPersistedQueryKey', () => {
  it('keeps what Units, Unit detail, Count, Pick list and Garages read, and what they need to render', () => {
    const kept = [
      unitsQuery.queryKey,
      unitQuery('unit-1').queryKey,
      // A unit's upcoming stays (web/features/listings-import/UpcomingStays.tsx).
      ['units', 'unit-1', 'stays'],
      garagesQuery.queryKey,
      itemsQuery.queryKey,
      pickListQuery('garage-1', undefined).queryKey,
      pickListQuery('garage-1', '2026-11-30').queryKey,
      orderForecastQuery('garage-1').queryKey,
      unitForecastQuery('unit-1').queryKey,
      meQuery.queryKey,
      subscriptionStatusQuery.queryKey,
    ];
    for (const key of kept) expect(isPersistedQueryKey(key), JSON.stringify(key)).toBe(true);
  });

  it('keeps nothing of reports, billing, the team, the import, the dashboard or the forecast screen, nor calendar links', () => {
    const notKept = [
      statusReportQuery.queryKey,
      ['reports', 'costs', { period: 'month' }],
      subscriptionTiersQuery.queryKey,
      subscriptionUsageQuery.queryKey,
      teamQuery.queryKey,
      connectionQuery.queryKey,
      dashboardQuery.queryKey,
      forecastSummaryQuery.queryKey,
      forecastQuery(14).queryKey,
      onboardingStatusQuery.queryKey,
      // The channels' private calendar addresses.
      unitCalendarQuery('unit-1').queryKey,
      ['scanner'],
      ['daily-email'],
      [],
    ];
    for (const key of notKept) expect(isPersistedQueryKey(key), JSON.stringify(key)).toBe(false);
  });

  it('has a kept prefix for every kept key (the query client keeps those in memory as long)', () => {
    const isPrefix = (prefix: readonly unknown[], key: readonly unknown[]) => prefix.every((part, i) => key[i] === part);
    for (const key of [unitsQuery.queryKey, unitQuery('u').queryKey, ['units', 'u', 'stays'], pickListQuery('g', undefined).queryKey, meQuery.queryKey]) {
      expect(PERSISTED_QUERY_PREFIXES.some((prefix) => isPrefix(prefix, key)), JSON.stringify(key)).toBe(true);
    }
    expect(OFFLINE_CACHE_MAX_AGE_MS).toBe(7 * 24 * 3600 * 1000);
  });
});

describe('offlineCacheBuster', () => {
  it("differs for another user or another build, so neither restores the other's data", () => {
    expect(offlineCacheBuster('/assets/index-a.js', 'user-1')).toBe(offlineCacheBuster('/assets/index-a.js', 'user-1'));
    expect(offlineCacheBuster('/assets/index-a.js', 'user-1')).not.toBe(offlineCacheBuster('/assets/index-a.js', 'user-2'));
    expect(offlineCacheBuster('/assets/index-a.js', 'user-1')).not.toBe(offlineCacheBuster('/assets/index-b.js', 'user-1'));
    // No pair of build and user reads as another pair.
    expect(offlineCacheBuster('a|b', 'c')).not.toBe(offlineCacheBuster('a', 'b|c'));
  });
});

describe('restoredForAnotherCompany', () => {
  it('is true only when restored company data meets another company', () => {
    expect(restoredForAnotherCompany('tenant-1', 'tenant-1')).toBe(false);
    expect(restoredForAnotherCompany('tenant-1', 'tenant-2')).toBe(true);
    expect(restoredForAnotherCompany('tenant-1', undefined)).toBe(true);
    expect(restoredForAnotherCompany(undefined, 'tenant-2')).toBe(false);
  });
});
