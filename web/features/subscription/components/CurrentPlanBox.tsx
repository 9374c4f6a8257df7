/** The 'Current Plan' box of the Subscription screen (SPEC.md "Subscription"). */
import { isInActiveTrial } from '../access';
import { useSubscriptionStatus } from '../api/get-subscription-status';

/** The sentence for the tenant's state; null while it is unknown or there is no company yet. */
function useCurrentPlanText(): string | null {
  const { data: status } = useSubscriptionStatus();
  if (!status) return null;
  if (status.subscription_status === 'active') return `You are currently on the ${status.tier_name ?? 'current'} plan`;
  if (isInActiveTrial(status)) return `Trial Period - ${status.days_remaining} days remaining`;
  return 'Your trial has expired. Please subscribe to continue.';
}

/** Renders the box once the status is known. */
export function CurrentPlanBox() {
  const text = useCurrentPlanText();
  if (!text) return null;
  return (
    <section aria-labelledby="current-plan-heading" className="rounded-xl border border-blue-200 bg-blue-50 px-5 py-4">
      <h2 id="current-plan-heading" className="text-lg font-semibold text-blue-950">
        Current Plan
      </h2>
      <p className="mt-1 text-base text-blue-900">{text}</p>
    </section>
  );
}
