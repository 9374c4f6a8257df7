/**
 * Which listings the Import Listings dialog shows and may select (docs/product.md "Import from
 * Hostaway"): imported listings are shown by default and never selectable; Select All selects
 * every listing not yet imported.
 */
import type { HostawayListing } from '../../../common/contracts/listings-import';

/** The listings shown: all, or only those not yet imported when imported ones are hidden. */
export function shownListings(listings: HostawayListing[], showImported: boolean): HostawayListing[] {
  return showImported ? listings : listings.filter((l) => !l.imported);
}

/** The ids Select All selects: every listing not yet imported. */
export function selectableIds(listings: HostawayListing[]): Set<string> {
  return new Set(listings.filter((l) => !l.imported).map((l) => l.external_id));
}

/** True when every selectable listing is selected (the button then reads 'Deselect All'). */
export function allSelected(listings: HostawayListing[], selected: ReadonlySet<string>): boolean {
  const ids = selectableIds(listings);
  return ids.size > 0 && [...ids].every((id) => selected.has(id));
}

/** `selected` with `id` added or removed; imported listings are never added. */
export function toggled(listings: HostawayListing[], selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else if (selectableIds(listings).has(id)) next.add(id);
  return next;
}

/** The selected listings as the save sends them, in the order Hostaway listed them. */
export function selectionBody(listings: HostawayListing[], selected: ReadonlySet<string>) {
  return listings.filter((l) => selected.has(l.external_id) && !l.imported).map(({ external_id, name, address }) => ({ external_id, name, address }));
}

/** `listings` with those of `ids` marked imported (just saved: Hostaway need not be asked again). */
export function markImported(listings: HostawayListing[], ids: ReadonlySet<string>): HostawayListing[] {
  return ids.size === 0 ? listings : listings.map((l) => (ids.has(l.external_id) ? { ...l, imported: true } : l));
}
