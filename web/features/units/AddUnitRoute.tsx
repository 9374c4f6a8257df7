/** /add-unit: the add-unit form (SPEC.md "Add Unit"), in a narrow layout; not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { SubscriptionGate } from '../subscription/components/SubscriptionGate';

/** The Add Unit screen behind the expired-trial gate. */
export function AddUnitRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to add more units.">
      <div className="mx-auto max-w-2xl">
        <PlaceholderScreen title="Add Unit" />
      </div>
    </SubscriptionGate>
  );
}
