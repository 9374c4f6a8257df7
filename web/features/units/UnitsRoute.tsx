/** /units: the units list (SPEC.md "Units"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { SubscriptionGate } from '../subscription/components/SubscriptionGate';

/** The Units screen behind the expired-trial gate. */
export function UnitsRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing units.">
      <PlaceholderScreen title="Units" subtitle="Manage your property units" />
    </SubscriptionGate>
  );
}
