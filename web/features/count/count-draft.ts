/**
 * The count draft (docs/product.md "Screens: Count"): what the user counted at one location, kept
 * on the device (localStorage, one key per company and location) until it is saved or discarded,
 * and the summary of differences shown before saving and after.
 */
import { z } from 'zod';
import type { CountLine } from '../../../common/contracts/count';
import { MAX_QUANTITY } from '../../../common/contracts/fields';

/** The place being counted: a garage (storage) or a unit (property). */
export interface CountPlace {
  kind: 'garage' | 'unit';
  id: string;
}

const quantity = z.number().int().min(0).max(MAX_QUANTITY);

const storedDraft = z.object({
  /** When the draft was last changed (ISO 8601). */
  savedAt: z.iso.datetime(),
  /** By item id: the quantity the screen showed when the item was counted, and the count. */
  lines: z.record(z.string(), z.object({ expected: quantity, counted: quantity })),
});
export type CountDraft = z.infer<typeof storedDraft>;

/** A draft with nothing counted yet. */
export const emptyDraft = (): CountDraft => ({ savedAt: new Date().toISOString(), lines: {} });

/** The storage key of the draft of `place` in company `tenantId`. */
export function draftKey(tenantId: string, place: CountPlace): string {
  return `inventory-manager.count.${tenantId}.${place.kind}.${place.id}`;
}

/** The stored draft of `key`, or null when there is none (or it cannot be read). */
export function loadDraft(key: string): CountDraft | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const parsed = storedDraft.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    // Storage blocked (private mode) or malformed JSON: no draft.
    return null;
  }
}

/** Stores the draft; one with no line removes it. Where storage is unavailable the draft lives on in memory. */
export function storeDraft(key: string, draft: CountDraft): void {
  try {
    if (Object.keys(draft.lines).length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Nothing to do: the screen keeps the draft for the visit.
  }
}

/** Removes the stored draft (saved or discarded). */
export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored then.
  }
}

/**
 * `draft` with `itemId` counted as `counted`, `expected` being what the screen shows for it now
 * (an item counted before keeps the quantity expected then). A count back at the expected
 * quantity drops the line: nothing differs there.
 */
export function withCount(draft: CountDraft, itemId: string, expected: number, counted: number): CountDraft {
  const kept = draft.lines[itemId]?.expected ?? expected;
  const lines = { ...draft.lines, [itemId]: { expected: kept, counted } };
  if (counted === kept) delete lines[itemId];
  return { savedAt: new Date().toISOString(), lines };
}

/**
 * `draft` with the expected quantity of each item of `now` replaced by the stock there now, the
 * counts kept: after the server refused lines whose stock moved since they were counted.
 */
export function withExpected(draft: CountDraft, now: ReadonlyMap<string, number>): CountDraft {
  const lines = Object.fromEntries(
    Object.entries(draft.lines).map(([itemId, line]) => [itemId, { ...line, expected: now.get(itemId) ?? line.expected }]),
  );
  return { savedAt: new Date().toISOString(), lines };
}

/** The lines to send: those whose count differs from what was expected, in item id order. */
export function changedLines(draft: CountDraft): CountLine[] {
  return Object.entries(draft.lines)
    .filter(([, line]) => line.counted !== line.expected)
    .map(([item_id, line]) => ({ item_id, expected: line.expected, counted: line.counted }))
    .sort((a, b) => a.item_id.localeCompare(b.item_id));
}

/** One difference between what was expected and what was counted, by item name. */
export interface Difference {
  name: string;
  change: number;
}

/** How many differences the summary names before '…and N more'. */
const NAMED_DIFFERENCES = 5;

/**
 * The summary of differences: '3 items differ: −2 Bath Towel, +5 Coffee Pods, +1 Hand Soap', the
 * first few by name then '…and 4 more'; 'No item differs' when there is none.
 */
export function differenceSummary(differences: readonly Difference[]): string {
  if (differences.length === 0) return 'No item differs';
  const named = differences.slice(0, NAMED_DIFFERENCES).map((d) => `${d.change > 0 ? '+' : '−'}${Math.abs(d.change)} ${d.name}`);
  const more = differences.length - named.length;
  const head = differences.length === 1 ? '1 item differs' : `${differences.length} items differ`;
  return `${head}: ${named.join(', ')}${more > 0 ? `, …and ${more} more` : ''}`;
}
