import { describe, expect, it } from 'vitest';
import { comparisonTone, formatDayRange, formatLongDay, formatShortDay, wrapLabel } from './report-format';

describe('trend days', () => {
  it('shows the UTC day as it is, whatever the zone', () => {
    expect(formatShortDay('2025-03-14')).toBe('Mar 14');
    expect(formatLongDay('2025-03-14')).toBe('Fri, Mar 14, 2025');
    expect(formatShortDay('2025-01-01')).toBe('Jan 1');
  });

  it('shows the range a report covers', () => {
    // ICU puts thin spaces around the dash.
    expect(formatDayRange('2025-03-08', '2025-03-14')).toMatch(/^Mar 8\s–\s14, 2025$/);
    expect(formatDayRange('2024-12-25', '2025-01-02')).toMatch(/^Dec 25, 2024\s–\sJan 2, 2025$/);
    expect(formatDayRange('2025-03-14', '2025-03-14')).toBe('Mar 14, 2025');
  });
});

describe('cost by unit (docs/product.md "Screens: Reports")', () => {
  it('marks a week or month figure above the period cost, and only then', () => {
    expect(comparisonTone(12.5, 10)).toBe('above');
    expect(comparisonTone(10, 10)).toBe('within');
    expect(comparisonTone(0, 3.2)).toBe('within');
    expect(comparisonTone(0.01, 0)).toBe('above');
  });
});

describe('bar labels', () => {
  it('keeps short names on one line', () => {
    expect(wrapLabel('Tidepool Cottage', 16)).toEqual(['Tidepool Cottage']);
  });

  it('breaks long names between words, in at most two lines', () => {
    expect(wrapLabel('Manzanita Shore Cottage', 16)).toEqual(['Manzanita Shore', 'Cottage']);
    expect(wrapLabel('The Old Lighthouse Keeper Cottage', 16)).toEqual(['The Old', 'Lighthouse…']);
    expect(wrapLabel('Supercalifragilistic Loft', 12)).toEqual(['Supercalifr…', 'Loft']);
  });
});
