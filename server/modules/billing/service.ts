/**
 * Subscription status of a tenant (docs/product.md "Server rules" get_subscription_status,
 * "States and transitions" trial/subscription). The trial is ours (docs/product.md
 * "Plans, trial and limits"): it ends `trial_ends_at` (UTC); access is blocked only when the trial
 * has expired and the subscription is not active.
 */
import { millisecondsInDay } from 'date-fns/constants';
import { eq } from 'drizzle-orm';
import type { SubscriptionStatus } from '../../../common/contracts/session';
import type { Db } from '../../db/client';
import { subscriptions, subscriptionTiers } from '../../db/schema/billing';
import { withTenant } from '../../db/tenant-tx';
import { AppError } from '../../lib/errors';

/**
 * Reads the tenant's trial and subscription as of `now`.
 * `days_remaining` is whole days (of 24 hours, docs/decisions/017-dates.md) left in the trial,
 * rounded up, 0 once expired.
 * @throws AppError NO_TENANT when the tenant has no subscription row.
 */
export async function getSubscriptionStatus(db: Db, tenantId: string, now: Date): Promise<SubscriptionStatus> {
  const [row] = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ trialEndsAt: subscriptions.trialEndsAt, status: subscriptions.status, tierName: subscriptionTiers.name })
      .from(subscriptions)
      .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptions.tierId))
      .where(eq(subscriptions.tenantId, tenantId)),
  );
  if (!row) throw new AppError('NO_TENANT', 'No tenant ID available');
  const msLeft = row.trialEndsAt.getTime() - now.getTime();
  const active = row.status === 'active';
  return {
    subscription_status: active ? 'active' : 'inactive',
    trial_status: msLeft > 0 ? 'active' : 'expired',
    tier_name: active ? (row.tierName ?? null) : null,
    days_remaining: msLeft > 0 ? Math.ceil(msLeft / millisecondsInDay) : 0,
  };
}
