/**
 * A reopened step starts from what the server saved (docs/decisions/027-first-day-setup.md): the
 * device's draft is kept where the user typed something, and completed from the saved setup
 * elsewhere, so Continue edits the saved records instead of adding twins. Also what the
 * properties step says about filling the properties from storage.
 */
import type { OnboardingSetup, UnitsStepResult } from '../../../common/contracts/onboarding';
import type { Item } from '../../../common/contracts/stock';
import type { GarageDraft, ItemDraft, ItemsDraft } from './forms';

const savedItemDraft = (item: Item): ItemDraft => ({
  id: item.id,
  name: item.name,
  category: item.category,
  minimum_threshold: String(item.minimum_threshold),
  count_cost: String(item.count_cost),
});

const isBlank = (row: ItemDraft) => row.name.trim() === '' && row.category.trim() === '';

/**
 * The items step's opening values: the saved items when the draft holds nothing typed; else the
 * draft, each row carrying the id of the saved item it edits (its own when still saved, else the
 * saved item of the same name, without regard to case), so that re-saving matches them.
 */
export function itemsDraftFrom(draft: ItemsDraft, saved: readonly Item[]): ItemsDraft {
  if (saved.length > 0 && draft.items.every(isBlank)) return { items: saved.map(savedItemDraft) };
  const ids = new Set(saved.map((i) => i.id));
  const own = new Set(draft.items.flatMap((row) => (row.id !== undefined && ids.has(row.id) ? [row.id] : [])));
  // A name finds only a saved item no row edits already.
  const byName = new Map(saved.filter((i) => !own.has(i.id)).map((i) => [i.name.toLowerCase(), i.id]));
  return {
    items: draft.items.map((row) => {
      const id = row.id !== undefined && own.has(row.id) ? row.id : byName.get(row.name.trim().toLowerCase());
      return { ...row, id };
    }),
  };
}

/**
 * The storage step's opening values: name and address as typed, or as saved when nothing is typed;
 * one starting quantity per saved item, in the items' order — as typed, else as saved, else empty.
 */
export function garageDraftFrom(draft: GarageDraft, saved: OnboardingSetup): GarageDraft {
  const typedPlace = draft.name.trim() !== '' || draft.address.trim() !== '';
  const place = !typedPlace && saved.garage ? { name: saved.garage.name, address: saved.garage.address } : { name: draft.name, address: draft.address };
  const typed = new Map(draft.stock.map((s) => [s.item_id, s.quantity]));
  const held = new Map((saved.garage?.stock ?? []).map((s) => [s.item_id, String(s.quantity)]));
  return { ...place, stock: saved.items.map((i) => ({ item_id: i.id, quantity: typed.get(i.id) ?? held.get(i.id) ?? '' })) };
}

/** One item as the properties step foresees filling: pieces wanted by all properties, held in storage, missing. */
export interface Coverage {
  item_id: string;
  item_name: string;
  wanted: number;
  held: number;
  missing: number;
}

/**
 * What filling `properties` new properties to their minimum would take from storage, per item
 * with a minimum threshold above 0 (the rule of "Restock to minimum": each new property starts at
 * 0 and is filled up to the threshold, as far as storage holds).
 */
export function coverage(saved: OnboardingSetup, properties: number): Coverage[] {
  const held = new Map((saved.garage?.stock ?? []).map((s) => [s.item_id, s.quantity]));
  return saved.items
    .filter((i) => i.minimum_threshold > 0)
    .map((i) => {
      const wanted = i.minimum_threshold * properties;
      const inStorage = held.get(i.id) ?? 0;
      return { item_id: i.id, item_name: i.name, wanted, held: inStorage, missing: Math.max(wanted - inStorage, 0) };
    });
}

/** The warning after setup when storage could not fill every property: 'Storage could not cover 3 Bath Towel, 5 Coffee Pods. …'. */
export function notCoveredMessage(short: UnitsStepResult['short']): string {
  const list = short.map((s) => `${s.missing} ${s.item_name}`).join(', ');
  return `Storage could not cover ${list}. Add them to storage, then use Restock to minimum on each property.`;
}
