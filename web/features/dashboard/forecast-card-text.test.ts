/** The dashboard card "Runs out before a check-in": its lines and count. */
import { describe, expect, it } from 'vitest';
import { summaryCount, summaryLine } from './forecast-card-text';

describe('summaryLine', () => {
  it('names the items short and the check-in day, and counts the ones not named', () => {
    const entry = { unit_id: 'u', unit_name: 'Beach House', arrival_date: '2026-11-27', kind: 'runs_out' as const, item_names: ['Bath Towel'], items_short: 1 };
    expect(summaryLine(entry)).toBe('Bath Towel before Fri, Nov 27');
    expect(summaryLine({ ...entry, item_names: ['Bath Towel', 'Coffee Pods'], items_short: 4 })).toBe('Bath Towel, Coffee Pods and 2 more before Fri, Nov 27');
  });
});

describe('summaryCount', () => {
  it('counts properties with the days', () => {
    expect(summaryCount({ properties_short: 1, horizon_days: 7 })).toBe('1 property in the next 7 days');
    expect(summaryCount({ properties_short: 3, horizon_days: 7 })).toBe('3 properties in the next 7 days');
  });
});
