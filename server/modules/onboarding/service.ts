/**
 * Onboarding: company -> items -> garage (Storage) -> units (Properties) (docs/product.md
 * "Screens: Onboarding", "States and transitions"). Each step is one transaction;
 * `tenants.onboarding_step` holds the next step to do and a step is accepted only once the previous
 * one is done. Saving the units completes setup.
 */
import { randomUUID } from 'node:crypto';
import { utc } from '@date-fns/utc';
import { addDays } from 'date-fns';
import { asc, eq, sql } from 'drizzle-orm';
import type { CompanyStepBody, GarageStepBody, ItemsStepBody, UnitsStepBody } from '../../../common/contracts/onboarding';
import { onboardingSteps, type OnboardingStatus, type OnboardingStep } from '../../../common/contracts/onboarding-status';
import { queryRows, type Db, type Tx } from '../../db/client';
import { memberships, tenants } from '../../db/schema/auth';
import { subscriptions } from '../../db/schema/billing';
import { garages, items, units } from '../../db/schema/stock';
import { openEmptyUnitStockRows } from '../stock/ledger';
import { enterTenantScope, withTenant } from '../../db/tenant-tx';
import { AppError } from '../../lib/errors';
import type { Identity, TenantIdentity } from '../auth/session';
import { assertWithinLimit } from '../billing/plans';

/** check_onboarding_status of docs/product.md "Server rules". */
export async function onboardingStatus(db: Db, who: Identity): Promise<OnboardingStatus> {
  if (!who.tenantId) return { needs_onboarding: true, current_step: 'company' };
  const [tenant] = await withTenant(db, who.tenantId, (tx) =>
    tx
      .select({ step: tenants.onboardingStep, completedAt: tenants.onboardingCompletedAt })
      .from(tenants)
      .where(eq(tenants.id, who.tenantId!)),
  );
  if (!tenant) throw new AppError('NO_TENANT', 'No tenant ID available');
  return { needs_onboarding: tenant.completedAt === null, current_step: tenant.step };
}

/** A URL-safe slug, unique thanks to a random suffix (organization slugs are unique). */
function slugFor(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'company'}-${randomUUID().slice(0, 8)}`;
}

/**
 * Company step (docs/product.md "Server rules" safely_create_tenant_with_trial): creates the
 * tenant, makes the user its owner and starts the trial of `trialDays` days from `now`.
 * @returns the new tenant id.
 * @throws AppError CONFLICT when the user already belongs to a tenant.
 */
export async function createCompany(
  db: Db,
  who: Identity,
  body: CompanyStepBody,
  opts: { trialDays: number; now: Date },
): Promise<{ tenant_id: string }> {
  const tenantId = randomUUID();
  return db.transaction(async (tx) => {
    // Serialises two concurrent company submits of the same user. The membership check runs
    // before the tenant scope is entered: under RLS the user's other memberships are invisible.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${who.userId}))`);
    const existing = await queryRows(
      tx,
      sql`select 1 from ${memberships} where ${memberships.userId} = ${who.userId} limit 1`,
    );
    if (existing.length > 0) throw new AppError('CONFLICT', 'Your account already belongs to a company');
    await enterTenantScope(tx, tenantId);
    await tx.insert(tenants).values({ id: tenantId, name: body.company_name, slug: slugFor(body.company_name), onboardingStep: 'items' });
    await tx.insert(memberships).values({ organizationId: tenantId, id: randomUUID(), userId: who.userId, role: 'owner' });
    await tx
      .insert(subscriptions)
      .values({ tenantId, trialEndsAt: addDays(opts.now, opts.trialDays, { in: utc }) });
    return { tenant_id: tenantId };
  });
}

/**
 * Locks the tenant row and checks that `step` may be saved now: onboarding not complete and
 * every earlier step done. Returns nothing; throws otherwise.
 * @throws AppError CONFLICT
 */
async function assertStepOpen(tx: Tx, tenantId: string, step: OnboardingStep): Promise<void> {
  const [tenant] = await tx
    .select({ step: tenants.onboardingStep, completedAt: tenants.onboardingCompletedAt })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for('update');
  if (!tenant) throw new AppError('NO_TENANT', 'No tenant ID available');
  if (tenant.completedAt) throw new AppError('CONFLICT', 'Setup is already complete');
  if (onboardingSteps.indexOf(tenant.step) < onboardingSteps.indexOf(step)) {
    throw new AppError('CONFLICT', 'Please complete the previous steps first');
  }
}

/** Moves the tenant's next step forward to `next` (never backward). */
async function advanceTo(tx: Tx, tenantId: string, next: OnboardingStep): Promise<void> {
  const order = onboardingSteps.indexOf(next);
  await tx
    .update(tenants)
    .set({ onboardingStep: next })
    .where(
      sql`${tenants.id} = ${tenantId} and array_position(array['company','items','garage','units'], ${tenants.onboardingStep}) <= ${order + 1}`,
    );
}

/**
 * Items step: replaces the tenant's items with `body.items` (no location holds stock before the
 * units step, so nothing of the ledger is touched), within the plan's item limit.
 */
export async function saveOnboardingItems(db: Db, who: TenantIdentity, body: ItemsStepBody, now: Date): Promise<{ count: number }> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertStepOpen(tx, who.tenantId, 'items');
    await tx.delete(items).where(eq(items.tenantId, who.tenantId));
    await assertWithinLimit(tx, who.tenantId, 'items', body.items.length, now);
    if (body.items.length > 0) {
      await tx.insert(items).values(
        body.items.map((i) => ({
          tenantId: who.tenantId,
          name: i.name,
          category: i.category,
          minimumThreshold: i.minimum_threshold,
          countCost: i.count_cost.toFixed(2),
        })),
      );
    }
    await advanceTo(tx, who.tenantId, 'garage');
    return { count: body.items.length };
  });
}

/** Garage step: creates the onboarding storage location, or renames it when the step is saved again. */
export async function saveOnboardingGarage(db: Db, who: TenantIdentity, body: GarageStepBody): Promise<{ id: string }> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertStepOpen(tx, who.tenantId, 'garage');
    const [existing] = await tx
      .select({ id: garages.id })
      .from(garages)
      .where(eq(garages.tenantId, who.tenantId))
      .orderBy(asc(garages.createdAt))
      .limit(1);
    let id = existing?.id;
    if (id) {
      await tx.update(garages).set({ name: body.name, address: body.address }).where(sql`${garages.tenantId} = ${who.tenantId} and ${garages.id} = ${id}`);
    } else {
      const [row] = await tx.insert(garages).values({ tenantId: who.tenantId, name: body.name, address: body.address }).returning({ id: garages.id });
      id = row!.id;
    }
    await advanceTo(tx, who.tenantId, 'units');
    return { id };
  });
}

/**
 * Units step and "Complete Setup" (docs/product.md "Server rules" mark_onboarding_complete):
 * creates the properties linked to the onboarding garage, a stock row of quantity 0 (critical) for
 * every item in each, recorded in the ledger as `initial`, and marks onboarding complete — all in
 * one transaction.
 * @throws AppError CONFLICT when the garage step was not done.
 */
export async function saveOnboardingUnits(
  db: Db,
  who: TenantIdentity,
  body: UnitsStepBody,
  now: Date,
): Promise<{ count: number }> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertStepOpen(tx, who.tenantId, 'units');
    await assertWithinLimit(tx, who.tenantId, 'units', body.units.length, now);
    const [garage] = await tx
      .select({ id: garages.id })
      .from(garages)
      .where(eq(garages.tenantId, who.tenantId))
      .orderBy(asc(garages.createdAt))
      .limit(1);
    if (!garage) throw new AppError('CONFLICT', 'Please complete the previous steps first');
    const created = await tx
      .insert(units)
      .values(body.units.map((u) => ({ tenantId: who.tenantId, name: u.name, address: u.address, garageId: garage.id })))
      .returning({ id: units.id });
    await openEmptyUnitStockRows(
      tx,
      created.map((u) => u.id),
      { tenantId: who.tenantId, userId: who.userId, note: 'Created during setup' },
    );
    await tx.update(tenants).set({ onboardingCompletedAt: sql`now()` }).where(eq(tenants.id, who.tenantId));
    return { count: created.length };
  });
}
