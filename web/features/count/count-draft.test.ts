/** The count draft: what is counted, what is sent, and the summary of differences (docs/product.md "Screens: Count"). */
import { describe, expect, it, vi } from 'vitest';
import { changedLines, differenceSummary, draftKey, emptyDraft, loadDraft, storeDraft, withCount, withExpected } from './count-draft';

const towel = '0b6f1c2e-0000-4000-8000-000000000001';
const pods = '0b6f1c2e-0000-4000-8000-000000000002';

describe('count draft', () => {
  it('keeps the quantity expected when an item was first counted, and drops a count back at it', () => {
    let draft = withCount(emptyDraft(), towel, 10, 9);
    draft = withCount(draft, towel, 12, 8);
    expect(draft.lines[towel]).toEqual({ expected: 10, counted: 8 });
    expect(withCount(draft, towel, 12, 10).lines).toEqual({});
  });

  it('sends only the lines that differ, in item id order', () => {
    const draft = withCount(withCount(emptyDraft(), pods, 0, 5), towel, 10, 8);
    expect(changedLines(draft)).toEqual([
      { item_id: towel, expected: 10, counted: 8 },
      { item_id: pods, expected: 0, counted: 5 },
    ]);
  });

  it('takes the stock now as expected for lines the server refused, keeping the counts', () => {
    const draft = withExpected(withCount(withCount(emptyDraft(), towel, 10, 9), pods, 4, 6), new Map([[towel, 8]]));
    expect(draft.lines).toEqual({ [towel]: { expected: 8, counted: 9 }, [pods]: { expected: 4, counted: 6 } });
  });

  it('summarises the differences, the first five by name', () => {
    expect(differenceSummary([])).toBe('No item differs');
    expect(differenceSummary([{ name: 'Bath Towel', change: -2 }])).toBe('1 item differs: −2 Bath Towel');
    const many = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((name, i) => ({ name, change: i + 1 }));
    expect(differenceSummary(many)).toBe('7 items differ: +1 A, +2 B, +3 C, +4 D, +5 E, …and 2 more');
  });

  it('is stored per company and place, read back, and removed when empty; unreadable drafts are none', () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    const key = draftKey('tenant-a', { kind: 'garage', id: 'g1' });
    expect(key).toBe('inventory-manager.count.tenant-a.garage.g1');
    const draft = withCount(emptyDraft(), towel, 3, 4);
    storeDraft(key, draft);
    expect(loadDraft(key)).toEqual(draft);
    storeDraft(key, emptyDraft());
    expect(loadDraft(key)).toBeNull();
    store.set(key, '{"lines":{"x":{"expected":1.5,"counted":2}}}');
    expect(loadDraft(key)).toBeNull();
    vi.unstubAllGlobals();
  });
});
