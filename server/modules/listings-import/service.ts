/**
 * Listings of a connected Hostaway account and their import as units (docs/product.md "Import
 * from Hostaway"): a listing becomes a unit keeping the listing id as `external_id`, so it is
 * never imported twice; the save is one transaction within the plan's unit limit.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { MAX_TEXT_LENGTH } from '../../../common/contracts/fields';
import type { HostawayListing, ImportListingsBody, ImportListingsResult } from '../../../common/contracts/listings-import';
import { garages, units } from '../../db/schema/stock';
import { withTenant } from '../../db/tenant-tx';
import { HostawayError, type HostawayListing as WireListing } from '../../integrations/hostaway';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';
import { assertWithinLimit } from '../billing/plans';
import { openEmptyUnitStockRows } from '../stock/commands/locations';
import { openSession, type HostawayDeps } from './credentials';

/** The address shown for a listing that has none (docs/product.md "Import from Hostaway"). */
export const NO_ADDRESS = 'No address provided';

/** One line of at most MAX_TEXT_LENGTH characters: control characters become spaces, runs of spaces one. */
function oneLine(value: string): string {
  return [...value.replace(/[\p{Cc}\p{Cs}]/gu, ' ').replace(/\s+/g, ' ').trim()].slice(0, MAX_TEXT_LENGTH).join('').trim();
}

/**
 * A listing as the dialog shows and saves it: its name (else its internal name, else 'Listing
 * {id}'); its `address`, else street, city, state, zip and country joined, else 'No address
 * provided'; both cut to one line of the unit fields' length.
 */
export function listingView(l: WireListing): Omit<HostawayListing, 'imported'> {
  const name = oneLine(l.name ?? '') || oneLine(l.internalListingName ?? '') || `Listing ${l.id}`;
  const parts = [l.street, l.city, l.state, l.zipcode, l.country].map((p) => oneLine(p ?? '')).filter(Boolean);
  const address = oneLine(l.address ?? '') || oneLine(parts.join(', ')) || NO_ADDRESS;
  return { external_id: String(l.id), name, address };
}

/**
 * Every listing of the company's Hostaway account, each marked `imported` when a unit of the
 * company already carries its id.
 * @throws AppError CONFLICT 'No access token available'; PROVIDER_ERROR 'Failed to fetch listings. …'.
 */
export async function fetchListings(deps: HostawayDeps, who: TenantIdentity): Promise<HostawayListing[]> {
  const session = await openSession(deps, who.tenantId);
  const wire = await deps.client.listListings(session).catch((err: unknown) => {
    if (err instanceof HostawayError) throw new AppError('PROVIDER_ERROR', `Failed to fetch listings. ${err.message}.`);
    throw err;
  });
  const rows = await withTenant(deps.db, who.tenantId, (tx) =>
    tx
      .select({ externalId: units.externalId })
      .from(units)
      .where(and(eq(units.tenantId, who.tenantId), isNotNull(units.externalId))),
  );
  const imported = new Set(rows.map((r) => r.externalId));
  return wire.map((l) => ({ ...listingView(l), imported: imported.has(String(l.id)) }));
}

/**
 * Saves the selected listings as units of `body.garage_id`, in one transaction: listings whose
 * id the company already has are skipped (and one listing selected twice is saved once); each
 * new unit gets a stock row of 0 for every item, recorded as `initial` like units created in
 * setup; the plan's unit limit is checked for the new ones.
 * @throws AppError NOT_FOUND (garage); CONFLICT 'All selected listings have already been imported
 *   for this tenant'; LIMIT_REACHED naming how many more fit. Nothing is saved then.
 */
export async function importListings(deps: Pick<HostawayDeps, 'db' | 'now'>, who: TenantIdentity, body: ImportListingsBody): Promise<ImportListingsResult> {
  const selected = [...new Map(body.listings.map((l) => [l.external_id, l])).values()];
  return withTenant(deps.db, who.tenantId, async (tx) => {
    const [garage] = await tx
      .select({ id: garages.id })
      .from(garages)
      .where(and(eq(garages.tenantId, who.tenantId), eq(garages.id, body.garage_id)));
    if (!garage) throw notFound('Garage');
    const existing = await tx
      .select({ externalId: units.externalId })
      .from(units)
      .where(and(eq(units.tenantId, who.tenantId), inArray(units.externalId, selected.map((l) => l.external_id))));
    const taken = new Set(existing.map((r) => r.externalId));
    const fresh = selected.filter((l) => !taken.has(l.external_id));
    if (fresh.length === 0) throw new AppError('CONFLICT', 'All selected listings have already been imported for this tenant');
    await assertWithinLimit(tx, who.tenantId, 'units', fresh.length, deps.now());
    const created = await tx
      .insert(units)
      .values(fresh.map((l) => ({ tenantId: who.tenantId, name: l.name, address: l.address, garageId: garage.id, externalId: l.external_id })))
      // A concurrent import of the same listing committed since the read above: skipped too.
      .onConflictDoNothing()
      .returning({ id: units.id });
    if (created.length === 0) throw new AppError('CONFLICT', 'All selected listings have already been imported for this tenant');
    await openEmptyUnitStockRows(
      tx,
      created.map((u) => u.id),
      { tenantId: who.tenantId, userId: who.userId, note: 'Imported from Hostaway' },
    );
    return { imported: created.length, skipped: body.listings.length - created.length };
  });
}
