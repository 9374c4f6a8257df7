/**
 * Checkout and Customer Portal sessions (docs/product.md "Validation rules" Checkout, "Messages",
 * "Plans, trial and limits"). Only the tenant's owner may start them (their routes declare it:
 * server/access.ts); the price id is looked up on the server from the tier and the interval
 * (configuration first, then the tiers table), never taken from the browser.
 */
import { eq, sql } from 'drizzle-orm';
import type { CheckoutBody } from '../../../common/contracts/billing';
import { queryRows, type Db } from '../../db/client';
import { subscriptions, subscriptionTiers } from '../../db/schema/billing';
import { withTenant } from '../../db/tenant-tx';
import type { BillingProvider } from '../../integrations/billing';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';

export interface CheckoutOptions {
  appUrl: string;
  /** Configured price ids by lower-case tier name. */
  prices: Record<string, { month?: string; year?: string }>;
}

function requireBilling(billing: BillingProvider | null): BillingProvider {
  if (!billing) throw new AppError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this server');
  return billing;
}

/**
 * Creates a Checkout Session for `body.tier_id` and interval; per-unit plans are billed for the
 * tenant's unit count (at least 1).
 * @returns the Checkout URL.
 * @throws BILLING_NOT_CONFIGURED | NOT_FOUND | CONFLICT 'No valid price ID found for {tier}' | PROVIDER_ERROR
 */
export async function startCheckout(
  db: Db,
  billing: BillingProvider | null,
  who: TenantIdentity,
  body: CheckoutBody,
  opts: CheckoutOptions,
): Promise<string> {
  const provider = requireBilling(billing);
  const { tier, units, customerId } = await withTenant(db, who.tenantId, async (tx) => {
    const [found] = await tx.select().from(subscriptionTiers).where(eq(subscriptionTiers.id, body.tier_id));
    const [count] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from units where tenant_id = ${who.tenantId}`);
    const [sub] = await tx
      .select({ customerId: subscriptions.stripeCustomerId })
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, who.tenantId));
    return { tier: found, units: Number(count!.n), customerId: sub?.customerId ?? null };
  });
  if (!tier) throw notFound('Plan');
  const configured = opts.prices[tier.name.toLowerCase()]?.[body.interval];
  const priceId = configured ?? (body.interval === 'year' ? tier.stripePriceIdYearly : tier.stripePriceIdMonthly);
  if (!priceId) throw new AppError('CONFLICT', `No valid price ID found for ${tier.name}`);
  try {
    return await provider.createCheckout({
      priceId,
      quantity: tier.perUnit ? Math.max(1, units) : 1,
      tenantId: who.tenantId,
      tierId: tier.id,
      interval: body.interval,
      customerId,
      customerEmail: who.email,
      successUrl: `${opts.appUrl}/subscription?success=true`,
      cancelUrl: `${opts.appUrl}/subscription?canceled=true`,
    });
  } catch {
    throw new AppError('PROVIDER_ERROR', 'Failed to create checkout session');
  }
}

/**
 * Creates a Customer Portal session for "Manage Subscription".
 * @returns the portal URL.
 * @throws BILLING_NOT_CONFIGURED | CONFLICT (no customer yet) | PROVIDER_ERROR
 */
export async function openPortal(db: Db, billing: BillingProvider | null, who: TenantIdentity, appUrl: string): Promise<string> {
  const provider = requireBilling(billing);
  const [sub] = await withTenant(db, who.tenantId, (tx) =>
    tx.select({ customerId: subscriptions.stripeCustomerId }).from(subscriptions).where(eq(subscriptions.tenantId, who.tenantId)),
  );
  if (!sub?.customerId) throw new AppError('CONFLICT', 'There is no subscription to manage yet. Choose a plan first.');
  try {
    return await provider.createPortal(sub.customerId, `${appUrl}/subscription`);
  } catch {
    throw new AppError('PROVIDER_ERROR', 'Failed to create portal session');
  }
}
