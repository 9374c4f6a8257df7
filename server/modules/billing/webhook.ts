/**
 * Applies verified Stripe webhook events to the tenant's subscription state (docs/product.md
 * "Plans, trial and limits"): each event id is recorded once (a replay changes nothing), and an
 * event older than the newest one applied is recorded but not applied, so a late `updated` never
 * undoes a later `deleted`. Handled: checkout.session.completed, customer.subscription.created /
 * updated / deleted, invoice.paid, invoice.payment_failed. Stripe API objects are read defensively,
 * as their shape differs across API versions (e.g. current_period_end on the subscription or its
 * items).
 */
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { processedWebhookEvents, subscriptions, subscriptionTiers } from '../../db/schema/billing';
import { enterTenantScope } from '../../db/tenant-tx';
import type { BillingEvent } from '../../integrations/billing';

type Obj = Record<string, unknown>;
type Status = 'none' | 'active' | 'past_due' | 'canceled';
type Patch = Partial<{
  status: Status;
  tierId: string;
  billingInterval: 'month' | 'year';
  currentPeriodEnd: Date;
  stripeCustomerId: string;
  stripeSubscriptionId: string;
}>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
/** An id field that may be expanded into an object. */
const idOf = (v: unknown): string | undefined => str(v) ?? str(obj(v).id);

/** The tenant id our checkout put in the metadata, wherever this object type carries it. */
function tenantOf(o: Obj): string | undefined {
  const candidates = [
    obj(o.metadata).tenant_id,
    o.client_reference_id,
    obj(obj(o.subscription_details).metadata).tenant_id,
    obj(obj(obj(o.parent).subscription_details).metadata).tenant_id,
  ];
  return candidates.map(str).find((c) => c && UUID.test(c));
}

/** Stripe subscription status -> ours. */
function statusOf(stripeStatus: string | undefined): Status {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'none';
  }
}

/** Tier and interval of a subscription object: by configured price id, else by its metadata. */
function planOf(
  sub: Obj,
  prices: Record<string, { month?: string; year?: string }>,
  tiers: { id: string; name: string }[],
): Pick<Patch, 'tierId' | 'billingInterval'> {
  const item = obj((obj(sub.items).data as unknown[] | undefined)?.[0]);
  const price = obj(item.price);
  const priceId = str(price.id);
  for (const [name, ids] of Object.entries(prices)) {
    const interval = ids.month === priceId ? 'month' : ids.year === priceId ? 'year' : undefined;
    const tier = tiers.find((t) => t.name.toLowerCase() === name);
    if (priceId && interval && tier) return { tierId: tier.id, billingInterval: interval };
  }
  const meta = obj(sub.metadata);
  const tierId = str(meta.tier_id);
  const interval = str(obj(price.recurring).interval) ?? str(meta.interval);
  return {
    ...(tierId && tiers.some((t) => t.id === tierId) ? { tierId } : {}),
    ...(interval === 'month' || interval === 'year' ? { billingInterval: interval } : {}),
  };
}

function periodEndOf(sub: Obj): Date | undefined {
  const item = obj((obj(sub.items).data as unknown[] | undefined)?.[0]);
  const end = [sub.current_period_end, item.current_period_end].find((v) => typeof v === 'number') as number | undefined;
  return end ? new Date(end * 1000) : undefined;
}

function patchFor(event: BillingEvent, prices: Record<string, { month?: string; year?: string }>, tiers: { id: string; name: string }[]): Patch | null {
  const o = event.object;
  switch (event.type) {
    case 'checkout.session.completed': {
      const meta = obj(o.metadata);
      const tierId = str(meta.tier_id);
      const interval = str(meta.interval);
      const paid = o.status === 'complete' && o.payment_status !== 'unpaid';
      return {
        ...(paid ? { status: 'active' as const } : {}),
        ...(idOf(o.customer) ? { stripeCustomerId: idOf(o.customer)! } : {}),
        ...(idOf(o.subscription) ? { stripeSubscriptionId: idOf(o.subscription)! } : {}),
        ...(tierId && tiers.some((t) => t.id === tierId) ? { tierId } : {}),
        ...(interval === 'month' || interval === 'year' ? { billingInterval: interval } : {}),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return {
        status: event.type === 'customer.subscription.deleted' ? 'canceled' : statusOf(str(o.status)),
        ...planOf(o, prices, tiers),
        ...(periodEndOf(o) ? { currentPeriodEnd: periodEndOf(o)! } : {}),
        ...(idOf(o.customer) ? { stripeCustomerId: idOf(o.customer)! } : {}),
        ...(str(o.id) ? { stripeSubscriptionId: str(o.id)! } : {}),
      };
    case 'invoice.paid':
      return { status: 'active', ...(idOf(o.customer) ? { stripeCustomerId: idOf(o.customer)! } : {}) };
    case 'invoice.payment_failed':
      return { status: 'past_due' };
    default:
      return null;
  }
}

/** The subscription id an event is about, when it names one. */
function subscriptionIdOf(event: BillingEvent): string | undefined {
  const o = event.object;
  if (event.type.startsWith('customer.subscription.')) return str(o.id);
  return idOf(o.subscription) ?? str(obj(obj(o.parent).subscription_details).subscription);
}

/**
 * Records and applies one verified event.
 * @returns 'duplicate' for an event id seen before, 'ignored' for an event that names no known
 *   tenant or type or is older than the state, else 'applied'.
 */
export async function applyBillingEvent(
  db: Db,
  event: BillingEvent,
  prices: Record<string, { month?: string; year?: string }>,
): Promise<'applied' | 'duplicate' | 'ignored'> {
  return db.transaction(async (tx: Tx) => {
    const inserted = await tx
      .insert(processedWebhookEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: processedWebhookEvents.id });
    if (inserted.length === 0) return 'duplicate';
    const tiers = await tx.select({ id: subscriptionTiers.id, name: subscriptionTiers.name }).from(subscriptionTiers);
    const patch = patchFor(event, prices, tiers);
    const tenantId = tenantOf(event.object);
    if (!patch || !tenantId) return 'ignored';

    await enterTenantScope(tx, tenantId);
    const [current] = await tx
      .select({ status: subscriptions.status, subId: subscriptions.stripeSubscriptionId, lastEventAt: subscriptions.lastEventAt })
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, tenantId))
      .for('update');
    if (!current) return 'ignored';
    const created = new Date(event.created * 1000);
    if (current.lastEventAt && created < current.lastEventAt) return 'ignored';
    // Same second as the newest event: a cancellation of this subscription stays final.
    const sameSubscription = current.subId && current.subId === subscriptionIdOf(event);
    if (
      current.lastEventAt &&
      created.getTime() === current.lastEventAt.getTime() &&
      current.status === 'canceled' &&
      sameSubscription &&
      patch.status !== 'canceled'
    ) {
      return 'ignored';
    }
    await tx
      .update(subscriptions)
      .set({ ...patch, lastEventAt: created, updatedAt: sql`now()` })
      .where(eq(subscriptions.tenantId, tenantId));
    return 'applied';
  });
}

