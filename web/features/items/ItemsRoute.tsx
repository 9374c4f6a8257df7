/** /items: the inventory items table (SPEC.md "Items"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { SubscriptionGate } from '../subscription/components/SubscriptionGate';

/** The Items screen behind the expired-trial gate. */
export function ItemsRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing items.">
      <PlaceholderScreen title="Items" subtitle="Manage your inventory items" />
    </SubscriptionGate>
  );
}
