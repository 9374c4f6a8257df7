/** /reports: cost analysis, status charts and the assistant (SPEC.md "Reports"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { SubscriptionGate } from '../subscription/components/SubscriptionGate';

/** The Reports screen behind the expired-trial gate. */
export function ReportsRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to access reports.">
      <PlaceholderScreen title="Reports" subtitle="Inventory status, cost analysis, and usage trends" />
    </SubscriptionGate>
  );
}
