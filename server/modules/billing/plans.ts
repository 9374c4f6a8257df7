/**
 * Plans, limits and the access rule, enforced on the server (docs/product.md
 * "Plans, trial and limits", "States and transitions").
 * - Access is blocked when the trial has expired and the subscription is not active.
 * - The limits in force are the subscribed tier's; during the trial (and until a tier is known)
 *   the trial plan's, Professional (docs/decisions/003-trial-plan.md).
 * - A limit check runs in the same transaction as the insert it guards, after locking the
 *   tenant's subscription row, so two concurrent creates cannot both take the last free slot.
 */
import { asc, sql } from 'drizzle-orm';
import type { Feature, LimitedResource, Tier, Usage } from '../../../common/contracts/billing';
import { UNLIMITED } from '../../../common/contracts/billing';
import { queryPrepared, queryRows, type Db, type Tx } from '../../db/client';
import { subscriptionTiers } from '../../db/schema/billing';
import { AppError } from '../../lib/errors';

/** The plan whose limits apply during the trial. */
export const TRIAL_TIER = 'Professional';

const limitColumn: Record<LimitedResource, keyof Pick<Tier, 'max_units' | 'max_items' | 'max_garages' | 'max_users'>> = {
  units: 'max_units',
  items: 'max_items',
  garages: 'max_garages',
  users: 'max_users',
};

const tierColumns = {
  id: subscriptionTiers.id,
  name: subscriptionTiers.name,
  description: subscriptionTiers.description,
  price: subscriptionTiers.price,
  yearly_price: subscriptionTiers.yearlyPrice,
  per_unit: subscriptionTiers.perUnit,
  max_units: subscriptionTiers.maxUnits,
  max_items: subscriptionTiers.maxItems,
  max_garages: subscriptionTiers.maxGarages,
  max_users: subscriptionTiers.maxUsers,
  features: subscriptionTiers.features,
};

type TierRow = Omit<Tier, 'price' | 'yearly_price'> & { price: string; yearly_price: string };
const toTier = (r: TierRow): Tier => ({ ...r, price: Number(r.price), yearly_price: Number(r.yearly_price) });

/** Every plan, cheapest first with the per-unit Enterprise last. */
export async function listTiers(db: Db | Tx): Promise<Tier[]> {
  const rows = await db.select(tierColumns).from(subscriptionTiers).orderBy(asc(subscriptionTiers.sortOrder), asc(subscriptionTiers.price));
  return rows.map(toTier);
}

/** One plan by name (case-insensitive), or undefined. */
export async function findTierByName(db: Db | Tx, name: string): Promise<Tier | undefined> {
  const [row] = await db.select(tierColumns).from(subscriptionTiers).where(sql`lower(${subscriptionTiers.name}) = lower(${name})`);
  return row ? toTier(row) : undefined;
}

interface AccessState {
  tier: Tier;
  blocked: boolean;
}

/**
 * Reads the tenant's subscription (locking it with `forUpdate`) and the plan in force.
 * @throws AppError NO_TENANT when the tenant has no subscription row.
 */
async function accessState(tx: Tx, tenantId: string, now: Date, forUpdate: boolean): Promise<AccessState> {
  // One round trip: the subscription with the tier in force, the subscribed one when active,
  // else the trial plan (a hot path: every gated request runs it).
  const [row] = await queryPrepared<TierRow & { trial_ends_at: string | Date; status: string }>(
    tx,
    forUpdate ? 'access_state_for_update' : 'access_state',
    sql`
    select s.trial_ends_at, s.status, t.id, t.name, t.description, t.price::text as price, t.yearly_price::text as yearly_price,
           t.per_unit, t.max_units, t.max_items, t.max_garages, t.max_users, t.features
    from subscriptions s
    join subscription_tiers t on t.id = coalesce(
      case when s.status = 'active' then s.tier_id end,
      (select id from subscription_tiers where name = ${TRIAL_TIER}))
    where s.tenant_id = ${tenantId}
    ${forUpdate ? sql`for update of s` : sql``}`,
  );
  if (!row) throw new AppError('NO_TENANT', 'No tenant ID available');
  const { trial_ends_at, status, ...tier } = row;
  return { tier: toTier(tier), blocked: status !== 'active' && new Date(trial_ends_at).getTime() <= now.getTime() };
}

/**
 * The access rule of docs/product.md "States and transitions" (the expired-trial gate), inside the
 * caller's tenant transaction; with `feature`, also the plan's feature switch (e.g. `cost_reports`).
 * Applied once per request: by the access hook (server/access.ts) for routes declaring
 * `gate: 'trial'`, by the write itself for plus and minus (docs/decisions/019-access-per-route.md).
 * @throws AppError SUBSCRIPTION_REQUIRED when the trial has expired and no subscription is active;
 *   FORBIDDEN when the plan in force does not include `feature`.
 */
export async function assertAccess(tx: Tx, tenantId: string, now: Date, feature?: Feature): Promise<void> {
  const state = await accessState(tx, tenantId, now, false);
  if (state.blocked) throw new AppError('SUBSCRIPTION_REQUIRED', 'Your trial has expired. Please subscribe to continue.');
  if (feature && !state.tier.features[feature]) {
    throw new AppError('FORBIDDEN', `Your ${state.tier.name} plan does not include this feature. Please upgrade to use it.`);
  }
}

/**
 * How much of `resource` the tenant uses at `now`. Users are the members and the invitations
 * still open (pending, not expired): each invitation holds the seat its invitee will take
 * (docs/decisions/029-team-and-invitations.md).
 */
async function countOf(tx: Tx, tenantId: string, resource: LimitedResource, now: Date): Promise<number> {
  const query =
    resource === 'users'
      ? sql`select (select count(*) from memberships where tenant_id = ${tenantId})
              + (select count(*) from invitations where tenant_id = ${tenantId} and status = 'pending' and expires_at > ${now.toISOString()}::timestamptz) as n`
      : sql`select count(*)::int as n from ${sql.raw(resource)} where tenant_id = ${tenantId}`;
  const [row] = await queryRows<{ n: number | string }>(tx, query);
  return Number(row!.n);
}

/**
 * Checks that `adding` more of `resource` fit the plan in force, holding the subscription row lock
 * until the caller's transaction ends. The expired-trial gate is not checked here: the route's
 * declared access applies it (onboarding, which is not behind the gate, uses this too;
 * docs/decisions/019-access-per-route.md).
 * @throws AppError LIMIT_REACHED ('You have reached the maximum number of {resource} for your plan. …',
 *   followed by 'Your plan has room for N more.' when `adding` is more than 1).
 */
export async function assertWithinLimit(tx: Tx, tenantId: string, resource: LimitedResource, adding: number, now: Date): Promise<void> {
  const { tier } = await accessState(tx, tenantId, now, true);
  const limit = tier[limitColumn[resource]];
  if (limit >= UNLIMITED) return;
  const used = await countOf(tx, tenantId, resource, now);
  if (used + adding > limit) {
    // A batch (an import) is told how many of it would fit.
    const room = adding > 1 ? ` Your plan has room for ${Math.max(0, limit - used)} more.` : '';
    throw new AppError(
      'LIMIT_REACHED',
      `You have reached the maximum number of ${resource} for your plan. Please upgrade to add more.${room}`,
    );
  }
}

/**
 * get_tenant_resource_counts of docs/product.md "Server rules", with the limits and counts behind
 * each allowance.
 */
export async function getUsage(tx: Tx, tenantId: string, now: Date): Promise<Usage> {
  const { tier } = await accessState(tx, tenantId, now, false);
  const resources = ['units', 'items', 'garages', 'users'] as const;
  // One connection per transaction: the counts run one after another.
  const used: Record<string, number> = {};
  for (const r of resources) used[r] = await countOf(tx, tenantId, r, now);
  const limits = Object.fromEntries(resources.map((r) => [r, tier[limitColumn[r]]]));
  const remaining = Object.fromEntries(
    resources.map((r) => [r, limits[r]! >= UNLIMITED ? UNLIMITED : limits[r]! - used[r]!]),
  );
  return { tier_name: tier.name, limits, used, remaining } as Usage;
}
