/**
 * /subscription: plans and billing (docs/product.md "Screens: Subscription"): the current plan, the usage of its
 * limits, the Monthly/Yearly switch, one card per plan with Subscribe, and the billing note.
 */
import { useState } from 'react';
import { OnlineOnly } from '../../components/OnlineOnly';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useSubscriptionStatus } from '../../lib/queries/get-subscription-status';
import { isAccessBlocked } from '../../lib/subscription-access';
import { useSubscriptionTiers } from './api/get-subscription-tiers';
import { useStartCheckout } from './api/start-checkout';
import { BillingIntervalToggle } from './components/BillingIntervalToggle';
import { CurrentPlanBox } from './components/CurrentPlanBox';
import { TierCard } from './components/TierCard';
import { UsageSummary } from './components/UsageSummary';
import type { BillingInterval } from './plan-display';
import { useCheckoutReturn } from './use-checkout-return';
import { RoleNote } from '../../components/RoleNote';
import { usePermission } from '../../lib/use-permission';

function Plans({ billingInterval }: { billingInterval: BillingInterval }) {
  const tiers = useSubscriptionTiers();
  const { data: status } = useSubscriptionStatus();
  const billing = usePermission('billing');
  const checkout = useStartCheckout();

  if (!tiers.data) return tiers.isError ? <LoadError onRetry={() => void tiers.refetch()} /> : <PageSpinner />;

  const currentTier = status?.subscription_status === 'active' ? status.tier_name : null;
  // After success too: the browser is on its way to the provider's page.
  const startingTierId = checkout.isPending || checkout.isSuccess ? checkout.variables?.tier_id : undefined;
  return (
    <div className="grid grid-cols-1 gap-6 pt-3 md:grid-cols-3 md:gap-4 xl:gap-6">
      {tiers.data.map((tier) => (
        <TierCard
          key={tier.id}
          tier={tier}
          interval={billingInterval}
          isCurrent={tier.name === currentTier}
          isBusy={tier.id === startingTierId}
          isDisabled={startingTierId !== undefined || !billing.allowed}
          onSubscribe={(chosen) => checkout.mutate({ tier_id: chosen.id, interval: billingInterval })}
        />
      ))}
    </div>
  );
}

function SubscriptionScreen() {
  useCheckoutReturn();
  const [billingInterval, setBillingInterval] = useState<BillingInterval>('year');
  const { data: status } = useSubscriptionStatus();
  const billing = usePermission('billing');
  return (
    <>
      <PageHeader title="Subscription Plans" subtitle="Choose the perfect plan for your business" />
      <div className="flex flex-col gap-6">
        <CurrentPlanBox />
        {/* Once the trial has expired nothing can be created, so the plans matter, not the limits. */}
        {status && !isAccessBlocked(status) && <UsageSummary />}
        <BillingIntervalToggle value={billingInterval} onChange={setBillingInterval} />
        <RoleNote reason={billing.reason} />
        <Plans billingInterval={billingInterval} />
        <p className="mx-auto max-w-2xl text-center text-sm text-slate-600">
          Payments are processed securely by Stripe, our card payment provider. Billing is automatic at the start of each month or
          year, and you can cancel or change your plan at any time.
        </p>
      </div>
    </>
  );
}

/** The Subscription screen; offline, the sentence that plans and billing need a connection. */
export function SubscriptionRoute() {
  return (
    <OnlineOnly screen="subscription">
      <SubscriptionScreen />
    </OnlineOnly>
  );
}
