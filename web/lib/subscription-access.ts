/** Rules derived from the subscription status (docs/product.md "States and transitions", trial and subscription). */
import type { SubscriptionStatus } from '../../common/contracts/session';

/** Access is blocked only when the trial has expired and there is no active subscription. */
export function isAccessBlocked(status: SubscriptionStatus): boolean {
  return status.trial_status === 'expired' && status.subscription_status !== 'active';
}

/** True while the tenant is in its trial and has not subscribed yet. */
export function isInActiveTrial(status: SubscriptionStatus): boolean {
  return status.subscription_status !== 'active' && status.trial_status === 'active';
}
