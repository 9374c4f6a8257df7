/** /garages: storage locations and their stock (SPEC.md "Garages"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { SubscriptionGate } from '../subscription/components/SubscriptionGate';

/** The Garages screen behind the expired-trial gate. */
export function GaragesRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing garages.">
      <PlaceholderScreen title="Garages" subtitle="Manage your storage garages" />
    </SubscriptionGate>
  );
}
