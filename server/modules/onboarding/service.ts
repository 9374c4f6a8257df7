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
import type {
  CompanyStepBody,
  GarageStepBody,
  ItemsStepBody,
  OnboardingSetup,
  UnitsStepBody,
  UnitsStepResult,
} from '../../../common/contracts/onboarding';
import { onboardingSteps, type OnboardingStatus, type OnboardingStep } from '../../../common/contracts/onboarding-status';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { memberships, tenants } from '../../db/schema/auth';
import { subscriptions } from '../../db/schema/billing';
import { garages, items, units } from '../../db/schema/stock';
import { openEmptyUnitStockRows, setStartingStock } from '../stock/commands/locations';
import { fillUnitToMinimum } from '../stock/commands/restock-to-minimum';
import { stockLocks } from '../stock/locks';
import { enterTenantScope, withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import { identityChanged } from '../auth/identity-cache';
import type { Identity, TenantIdentity } from '../auth/identity';
import { assertWithinLimit } from '../billing/plans';
import { itemColumns, toItem } from '../items/service';
import { assertItemsExist } from '../stock/known-items';

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
    await identityChanged(tx, who.userId);
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

/** The onboarding garage: the tenant's first (setup creates one and keeps editing it). */
async function onboardingGarage(tx: Tx, tenantId: string): Promise<{ id: string; name: string; address: string } | undefined> {
  const [garage] = await tx
    .select({ id: garages.id, name: garages.name, address: garages.address })
    .from(garages)
    .where(eq(garages.tenantId, tenantId))
    .orderBy(asc(garages.createdAt), asc(garages.id))
    .limit(1);
  return garage;
}

/**
 * What the steps saved so far (GET /api/onboarding/setup): the items by name, and the onboarding
 * garage with its stock per item, so a reopened step shows it and edits it.
 */
export async function onboardingSetup(db: Db, who: TenantIdentity): Promise<OnboardingSetup> {
  return withTenant(db, who.tenantId, async (tx) => {
    const saved = await tx.select(itemColumns).from(items).where(eq(items.tenantId, who.tenantId)).orderBy(asc(items.name), asc(items.id));
    const garage = await onboardingGarage(tx, who.tenantId);
    const stock = garage
      ? await queryRows<{ item_id: string; quantity: number }>(
          tx,
          sql`select item_id, quantity from garage_inventory where tenant_id = ${who.tenantId} and garage_id = ${garage.id} order by item_id`,
        )
      : [];
    return {
      items: saved.map(toItem),
      garage: garage ? { ...garage, stock: stock.map((r) => ({ item_id: r.item_id, quantity: Number(r.quantity) })) } : null,
    };
  });
}

/** Item names are matched without regard to case (docs/product.md "Validation rules"). */
const nameKey = (name: string) => name.toLowerCase();

/**
 * Items step: makes the tenant's items what `body.items` lists, editing instead of replacing
 * (docs/decisions/027-first-day-setup.md). An entry with an id updates that item, one without
 * updates the saved item of the same name or is added; saved items left out are removed, unless
 * they hold stock (the storage step's starting quantities), which is refused so that stock never
 * leaves outside the ledger. New items count against the plan's item limit.
 * @throws AppError NOT_FOUND for an id that is not one of the tenant's items; CONFLICT
 *   '{name} still has {n} in storage. …'; LIMIT_REACHED
 */
export async function saveOnboardingItems(db: Db, who: TenantIdentity, body: ItemsStepBody, now: Date): Promise<{ count: number }> {
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
    await assertStepOpen(tx, tenantId, 'items');
    const saved = await tx
      .select({ id: items.id, name: items.name, threshold: items.minimumThreshold })
      .from(items)
      .where(eq(items.tenantId, tenantId));
    const byId = new Map(saved.map((i) => [i.id, i]));
    // Entries with an id claim their item first, so a renamed item's old name can be reused.
    const claimed = new Set<string>();
    for (const entry of body.items) {
      if (entry.id === undefined) continue;
      if (!byId.has(entry.id)) throw notFound('Item');
      claimed.add(entry.id);
    }
    const unclaimedByName = new Map(saved.filter((i) => !claimed.has(i.id)).map((i) => [nameKey(i.name), i.id]));
    const plan = body.items.map((entry) => {
      const id = entry.id ?? unclaimedByName.get(nameKey(entry.name));
      if (id !== undefined) claimed.add(id);
      return { entry, id };
    });
    const removed = saved.filter((i) => !claimed.has(i.id));
    // Stock rows before their items (docs/decisions/009-ledger-lock-order.md): a threshold change
    // reaches them by the items_threshold_carry trigger, a removal by ON DELETE CASCADE. Locked before the stock
    // of removed items is checked, so none can arrive in between.
    const touched = [
      ...removed.map((i) => i.id),
      ...plan.filter((p) => p.id !== undefined && byId.get(p.id)!.threshold !== p.entry.minimum_threshold).map((p) => p.id!),
    ].sort();
    await stockLocks(tx, tenantId).itemRows(touched);
    await assertNoStock(tx, tenantId, removed.map((i) => i.id));
    if (removed.length > 0) {
      await tx.delete(items).where(sql`${items.tenantId} = ${tenantId} and ${items.id} = any(${pgArray(removed.map((i) => i.id))}::uuid[])`);
    }
    const values = (entry: ItemsStepBody['items'][number]) => ({
      name: entry.name,
      category: entry.category,
      minimumThreshold: entry.minimum_threshold,
      countCost: entry.count_cost.toFixed(2),
    });
    for (const { entry, id } of plan) {
      if (id !== undefined) await tx.update(items).set(values(entry)).where(sql`${items.tenantId} = ${tenantId} and ${items.id} = ${id}`);
    }
    const added = plan.filter((p) => p.id === undefined).map((p) => ({ tenantId, ...values(p.entry) }));
    await assertWithinLimit(tx, tenantId, 'items', added.length, now);
    if (added.length > 0) await tx.insert(items).values(added);
    await advanceTo(tx, tenantId, 'garage');
    return { count: body.items.length };
  });
}

/**
 * Refuses to remove items that hold stock somewhere (in setup: the storage's starting quantities).
 * @throws AppError CONFLICT naming the first such item and how much it holds.
 */
async function assertNoStock(tx: Tx, tenantId: string, itemIds: string[]): Promise<void> {
  if (itemIds.length === 0) return;
  const [held] = await queryRows<{ name: string; total: number }>(
    tx,
    sql`select i.name, sum(s.quantity)::int as total
        from items i join (
          select item_id, quantity from garage_inventory where tenant_id = ${tenantId}
          union all select item_id, quantity from unit_inventory where tenant_id = ${tenantId}
        ) s on s.item_id = i.id
        where i.tenant_id = ${tenantId} and i.id = any(${pgArray(itemIds)}::uuid[]) and s.quantity > 0
        group by i.name order by i.name limit 1`,
  );
  if (held) {
    throw new AppError(
      'CONFLICT',
      `${held.name} still has ${held.total} in storage. Set its starting quantity to 0 in the storage step before removing it.`,
    );
  }
}

/**
 * Garage step: creates the onboarding storage location, or updates it when the step is saved
 * again, and sets its starting quantity of each item listed through the ledger: a new stock row
 * is recorded as `initial`, a changed one (the step saved again) as a `count` of the difference
 * (docs/product.md "Stock movements and statuses"). Rows are set in item order, after the garage
 * row, the lock order of docs/decisions/009-ledger-lock-order.md.
 * @throws AppError NOT_FOUND for an item that is not the tenant's; CONFLICT before the items step
 */
export async function saveOnboardingGarage(db: Db, who: TenantIdentity, body: GarageStepBody): Promise<{ id: string }> {
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
    await assertStepOpen(tx, tenantId, 'garage');
    let id = (await onboardingGarage(tx, tenantId))?.id;
    if (id) {
      await tx.update(garages).set({ name: body.name, address: body.address }).where(sql`${garages.tenantId} = ${tenantId} and ${garages.id} = ${id}`);
    } else {
      const [row] = await tx.insert(garages).values({ tenantId, name: body.name, address: body.address }).returning({ id: garages.id });
      id = row!.id;
    }
    await assertItemsExist(tx, tenantId, body.stock.map((l) => l.item_id));
    await setStartingStock(tx, who, { kind: 'garage', id }, body.stock, STARTING_NOTE);
    await advanceTo(tx, tenantId, 'units');
    return { id };
  });
}

/** The note of the storage's starting quantities in the ledger. */
const STARTING_NOTE = 'Starting quantity, entered during setup';

/**
 * Units step and "Complete Setup" (docs/product.md "Server rules" mark_onboarding_complete):
 * creates the properties linked to the onboarding garage, a stock row of quantity 0 for every item
 * in each, recorded in the ledger as `initial`; with `fill_to_minimum`, restocks each property to
 * its items' minimum thresholds from the garage by the rule of "Restock to minimum" (as far as the
 * garage holds, property after property); and marks onboarding complete — all in one transaction.
 * The new properties are invisible to other transactions until it commits, so filling them one
 * after the other (each locking the garage rows it takes from) cannot deadlock with anyone.
 * @returns the properties created, what moved per item and what the garage could not cover.
 * @throws AppError CONFLICT when the garage step was not done; LIMIT_REACHED
 */
export async function saveOnboardingUnits(db: Db, who: TenantIdentity, body: UnitsStepBody, now: Date): Promise<UnitsStepResult> {
  return withTenant(db, who.tenantId, async (tx) => {
    await assertStepOpen(tx, who.tenantId, 'units');
    await assertWithinLimit(tx, who.tenantId, 'units', body.units.length, now);
    const garage = await onboardingGarage(tx, who.tenantId);
    if (!garage) throw new AppError('CONFLICT', 'Please complete the previous steps first');
    const created = await tx
      .insert(units)
      .values(body.units.map((u) => ({ tenantId: who.tenantId, name: u.name, address: u.address, garageId: garage.id })))
      .returning({ id: units.id });
    const unitIds = created.map((u) => u.id).sort();
    await openEmptyUnitStockRows(tx, unitIds, { tenantId: who.tenantId, userId: who.userId, note: 'Created during setup' });
    const moved = new Map<string, UnitsStepResult['moved'][number]>();
    const short = new Map<string, UnitsStepResult['short'][number]>();
    if (body.fill_to_minimum) {
      for (const unitId of unitIds) {
        const filled = await fillUnitToMinimum(tx, who, unitId);
        for (const m of filled.moved) moved.set(m.item_id, { ...m, quantity: (moved.get(m.item_id)?.quantity ?? 0) + m.quantity });
        for (const s of filled.short) short.set(s.item_id, { ...s, missing: (short.get(s.item_id)?.missing ?? 0) + s.missing });
      }
    }
    await tx.update(tenants).set({ onboardingCompletedAt: sql`now()` }).where(eq(tenants.id, who.tenantId));
    const byName = <T extends { item_name: string }>(list: Iterable<T>) => [...list].sort((a, b) => a.item_name.localeCompare(b.item_name));
    return { count: created.length, moved: byName(moved.values()), short: byName(short.values()) };
  });
}
