/** The dashboard card "Runs out before a check-in": its lines and count. */
import { describe, expect, it } from 'vitest';
import { seeAllText, summaryCount, summaryDay, summaryItems } from './forecast-card-text';

describe('summaryItems and summaryDay', () => {
  const entry = { unit_id: 'u', unit_name: 'Beach House', arrival_date: '2026-11-27', kind: 'runs_out' as const, item_names: ['Bath Towel'], items_short: 1 };

  it('names the items short and counts the ones not named', () => {
    expect(summaryItems(entry)).toBe('Bath Towel');
    expect(summaryItems({ ...entry, item_names: ['Bath Towel', 'Coffee Pods'], items_short: 4 })).toBe('Bath Towel, Coffee Pods and 2 more');
  });

  it('gives the check-in day', () => {
    expect(summaryDay(entry)).toBe('before Fri, Nov 27');
  });
});

describe('summaryCount', () => {
  it('counts properties with the days', () => {
    expect(summaryCount({ properties_short: 1, horizon_days: 7 })).toBe('1 unit in the next 7 days');
    expect(summaryCount({ properties_short: 3, horizon_days: 7 })).toBe('3 units in the next 7 days');
  });
});

describe('seeAllText', () => {
  it('says how many properties the full list has when there is more than one', () => {
    expect(seeAllText(13)).toBe('See all 13 units');
    expect(seeAllText(1)).toBe('Open the forecast');
    expect(seeAllText(0)).toBe('Open the forecast');
  });
});
