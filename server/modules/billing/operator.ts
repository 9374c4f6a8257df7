/**
 * Operator actions for self-hosted installs without Stripe (`npm run tenant:plan`): find a
 * tenant, set its plan by hand, or move the end of its trial.
 */
import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tenants } from '../../db/schema/auth';
import { subscriptions } from '../../db/schema/billing';
import { withTenant } from '../../db/tenant-tx';
import { AppError } from '../../lib/errors';
import { findTierByName } from './plans';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Finds a tenant by id, slug or exact company name (case-insensitive).
 * @throws AppError NOT_FOUND | CONFLICT when a name matches several tenants.
 */
export async function findTenant(db: Db, ref: string): Promise<{ id: string; name: string }> {
  const rows = await db
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(
      or(
        ...(UUID.test(ref) ? [eq(tenants.id, ref)] : []),
        eq(tenants.slug, ref),
        sql`lower(${tenants.name}) = lower(${ref})`,
      ),
    );
  if (rows.length === 0) throw new AppError('NOT_FOUND', `No tenant matches "${ref}"`);
  if (rows.length > 1) throw new AppError('CONFLICT', `Several tenants match "${ref}"; use the tenant id: ${rows.map((r) => r.id).join(', ')}`);
  return rows[0]!;
}

/**
 * Sets the tenant's plan: an active subscription to `tierName`, or none (`null`).
 * @throws AppError NOT_FOUND for an unknown tier.
 */
export async function setTenantPlan(db: Db, tenantId: string, tierName: string | null): Promise<void> {
  const tier = tierName === null ? null : await findTierByName(db, tierName);
  if (tierName !== null && !tier) throw new AppError('NOT_FOUND', `No plan named "${tierName}" (Starter, Professional or Enterprise)`);
  await withTenant(db, tenantId, (tx) =>
    tx
      .update(subscriptions)
      .set({ status: tier ? 'active' : 'none', tierId: tier?.id ?? null, billingInterval: null, currentPeriodEnd: null, updatedAt: sql`now()` })
      .where(eq(subscriptions.tenantId, tenantId)),
  );
}

/** Moves the end of the tenant's trial to `endsAt` (UTC). */
export async function setTrialEnd(db: Db, tenantId: string, endsAt: Date): Promise<void> {
  await withTenant(db, tenantId, (tx) =>
    tx.update(subscriptions).set({ trialEndsAt: endsAt, updatedAt: sql`now()` }).where(eq(subscriptions.tenantId, tenantId)),
  );
}
