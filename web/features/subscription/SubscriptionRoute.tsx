/** /subscription: plans and billing (SPEC.md "Subscription"); only the current plan is shown yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';
import { CurrentPlanBox } from './components/CurrentPlanBox';

/** The Subscription screen. */
export function SubscriptionRoute() {
  return (
    <PlaceholderScreen title="Subscription Plans" subtitle="Choose the perfect plan for your business">
      <CurrentPlanBox />
    </PlaceholderScreen>
  );
}
