import { describe, expect, it } from 'vitest';
import { allSelected, markImported, selectableIds, selectionBody, shownListings, toggled } from './listing-selection';

const listings = [
  { external_id: '1', name: 'A', address: 'a', imported: false },
  { external_id: '2', name: 'B', address: 'b', imported: true },
  { external_id: '3', name: 'C', address: 'c', imported: false },
];

describe('listing selection', () => {
  it('shows imported listings unless hidden, and selects only the others', () => {
    expect(shownListings(listings, true)).toHaveLength(3);
    expect(shownListings(listings, false).map((l) => l.external_id)).toEqual(['1', '3']);
    expect([...selectableIds(listings)]).toEqual(['1', '3']);
    expect(allSelected(listings, new Set(['1', '3']))).toBe(true);
    expect(allSelected(listings, new Set(['1']))).toBe(false);
    expect(allSelected([listings[1]!], new Set())).toBe(false);
  });

  it('never adds an imported listing and sends the selection without the imported mark', () => {
    expect([...toggled(listings, new Set(), '2')]).toEqual([]);
    expect([...toggled(listings, new Set(['1']), '1')]).toEqual([]);
    expect(selectionBody(listings, new Set(['3', '1', '2']))).toEqual([
      { external_id: '1', name: 'A', address: 'a' },
      { external_id: '3', name: 'C', address: 'c' },
    ]);
  });

  it('marks just saved listings imported', () => {
    expect(markImported(listings, new Set(['1'])).map((l) => l.imported)).toEqual([true, true, false]);
    expect(markImported(listings, new Set())).toBe(listings);
  });
});
