/** /unit/:unitId: one unit with its garage and inventory (SPEC.md "Unit detail"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { SubscriptionGate } from '../subscription/components/SubscriptionGate';

/** The Unit detail screen behind the expired-trial gate. */
export function UnitDetailRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing units.">
      <PlaceholderScreen title="Unit Details" />
    </SubscriptionGate>
  );
}
