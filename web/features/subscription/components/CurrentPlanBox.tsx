/**
 * The 'Current Plan' box of the Subscription screen (docs/product.md "Screens: Subscription"): the subscribed
 * plan with 'Manage Subscription', the days left in the trial, or the expired trial.
 */
import type { SubscriptionStatus } from '../../../../common/contracts/session';
import { Button } from '../../../components/ui/Button';
import { useSubscriptionStatus } from '../../../lib/queries/get-subscription-status';
import { isInActiveTrial } from '../../../lib/subscription-access';
import { useOpenPortal } from '../api/open-portal';
import { RoleNote } from '../../../components/RoleNote';
import { usePermission } from '../../../lib/use-permission';

type PlanState = 'subscribed' | 'trial' | 'expired';

function planState(status: SubscriptionStatus): PlanState {
  if (status.subscription_status === 'active') return 'subscribed';
  return isInActiveTrial(status) ? 'trial' : 'expired';
}

function planText(state: PlanState, status: SubscriptionStatus): string {
  if (state === 'subscribed') return `You are currently on the ${status.tier_name ?? 'current'} plan`;
  if (state === 'trial') return `Trial Period - ${status.days_remaining} days remaining`;
  return 'Your trial has expired. Please subscribe to continue.';
}

const toneClasses: Record<PlanState, string> = {
  subscribed: 'border-blue-200 bg-blue-50 text-blue-950',
  trial: 'border-blue-200 bg-blue-50 text-blue-950',
  expired: 'border-amber-300 bg-amber-50 text-amber-950',
};

function ManageSubscriptionButton() {
  const portal = useOpenPortal();
  return (
    // Stays busy after success too, while the browser leaves for the portal.
    <Button variant="secondary" isBusy={portal.isPending || portal.isSuccess} onClick={() => portal.mutate()} className="shrink-0">
      Manage Subscription
    </Button>
  );
}

/** Renders the box once the status is known; nothing before the company exists. */
export function CurrentPlanBox() {
  const { data: status } = useSubscriptionStatus();
  const billing = usePermission('billing');
  if (!status) return null;
  const state = planState(status);
  return (
    <section
      aria-labelledby="current-plan-heading"
      className={`flex flex-col gap-3 rounded-xl border px-5 py-4 sm:flex-row sm:items-center sm:justify-between ${toneClasses[state]}`}
    >
      <div>
        <h2 id="current-plan-heading" className="text-lg font-semibold">
          Current Plan
        </h2>
        <p className="mt-1 text-base" data-testid="current-plan-text">
          {planText(state, status)}
        </p>
      </div>
      {state === 'subscribed' && (billing.allowed ? <ManageSubscriptionButton /> : <RoleNote reason={billing.reason} />)}
    </section>
  );
}
