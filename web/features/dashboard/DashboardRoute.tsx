/**
 * / : the dashboard (docs/product.md "Screens: Dashboard"). It waits for the onboarding status (a
 * company not set up is taken to /onboarding by the shell's guard, without a flash of empty
 * figures); then it shows the stats, the properties that would run out before a check-in, alerts
 * (each opens the place to restock it) and recent activity.
 */
import { lazy, Suspense, useDeferredValue } from 'react';
import { Boxes, CircleAlert, House, TriangleAlert } from 'lucide-react';
import type { DashboardAlert, DashboardResponse } from '../../../common/contracts/dashboard';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { hasErrorCode } from '../../lib/api-error';
import { useDashboard } from '../../lib/queries/get-dashboard';
import { useOnboardingStatus } from '../../lib/queries/get-onboarding-status';
import { ActivityEntry } from './components/ActivityEntry';
import { AlertEntry } from './components/AlertEntry';
import { ForecastCardLoading } from './components/ForecastCardFrame';
import { PagedCard } from './components/PagedCard';
import { StatCard } from './components/StatCard';
import { useOpenAlert } from './use-open-alert';

// Its code loads after the first paint, outside the dashboard's budget of first-paint JavaScript
// (decision 016), while its frame holds its place. The download starts when this screen's code
// runs, beside the screen's data, rather than once that data has rendered.
const forecastCardModule = import('./components/ForecastCard');
// A failure is the card's to show when it renders, not an unhandled rejection before.
forecastCardModule.catch(() => undefined);
const ForecastCard = lazy(() => forecastCardModule.then((m) => ({ default: m.ForecastCard })));

function DashboardContent({ data }: { data: DashboardResponse }) {
  const { stats } = data;
  const alerts = useOpenAlert();
  const renderAlert = (alert: DashboardAlert) => (
    <AlertEntry alert={alert} isOpening={alerts.opening === alert.id} onTouch={() => alerts.touch(alert)} onOpen={() => void alerts.open(alert)} />
  );
  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total Units" value={stats.total_units} testId="stat-total-units" icon={House} tone="bg-blue-100 text-blue-700" />
        <StatCard label="Total Items" value={stats.total_items} testId="stat-total-items" icon={Boxes} tone="bg-indigo-100 text-indigo-700" />
        <StatCard
          label="Low Stock Items"
          value={stats.low_stock_items}
          testId="stat-low-stock-items"
          icon={TriangleAlert}
          tone="bg-yellow-100 text-yellow-700"
        />
        <StatCard
          label="Critical Items"
          value={stats.critical_items}
          testId="stat-critical-items"
          icon={CircleAlert}
          tone="bg-red-100 text-red-700"
        />
      </div>
      <div className="mt-6 grid gap-4 lg:grid-cols-2 2xl:grid-cols-3">
        <Suspense fallback={<ForecastCardLoading />}>
          <ForecastCard />
        </Suspense>
        <PagedCard
          title="Unit Alerts"
          testId="unit-alerts"
          items={data.unit_alerts}
          emptyText="No unit alerts at the moment"
          getKey={(alert) => alert.id}
          renderItem={renderAlert}
        />
        <PagedCard
          title="Garage Alerts"
          testId="garage-alerts"
          items={data.garage_alerts}
          emptyText="No garage alerts at the moment"
          getKey={(alert) => alert.id}
          renderItem={renderAlert}
        />
        <PagedCard
          title="Recent Activity"
          testId="recent-activity"
          items={data.recent_activity}
          emptyText="No recent activity"
          getKey={(movement) => movement.id}
          renderItem={(movement) => <ActivityEntry movement={movement} />}
        />
      </div>
    </>
  );
}

/** The dashboard screen. */
export function DashboardRoute() {
  const onboarding = useOnboardingStatus();
  const setUp = onboarding.data?.needs_onboarding === false;
  // Asked together with the status, not after it: one round trip less on a phone (decision 016).
  // Before onboarding it answers 409 NO_TENANT, which shows no toast.
  const dashboard = useDashboard();
  // New data is rendered as a deferred update, which React splits into slices the browser can
  // answer between; as an urgent one, the first content (a few hundred elements, the first date
  // formatted) blocked a slow phone for a few hundred milliseconds (decision 016). Until then
  // the screen shows what it showed before.
  const data = useDeferredValue(dashboard.data);

  // Data already on screen stays there when a background refetch fails.
  if (!onboarding.data) {
    return onboarding.isError ? <LoadError onRetry={() => void onboarding.refetch()} /> : <PageSpinner />;
  }
  // Not set up (NO_TENANT: no company yet): web/app/guards/RequireSetup.tsx is taking the user to setup.
  if (!setUp || hasErrorCode(dashboard.error, 'NO_TENANT')) return <PageSpinner />;
  if (!data) return dashboard.isError ? <LoadError onRetry={() => void dashboard.refetch()} /> : <PageSpinner />;
  return (
    <>
      <PageHeader title="Dashboard" />
      <DashboardContent data={data} />
    </>
  );
}
