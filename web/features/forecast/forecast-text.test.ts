/** The Forecast screen's wording: shortfalls, empty states, the cut list, the garages' pick lists, the service level. */
import { describe, expect, it } from 'vitest';
import type { ShortUnitForecast } from '../../../common/contracts/forecast';
import { bringLine, forecastEmptyState, forecastSections, garagesOf, itemUseText, moreShortText, serviceLevelMeaning, serviceText, shortfallText } from './forecast-text';

const property = (unit_id: string, garage_id: string | null, garage_name: string | null): ShortUnitForecast => ({
  unit_id,
  unit_name: unit_id,
  garage_id,
  garage_name,
  first_shortfall_date: '2026-11-27',
  stays: 1,
  past_stays: 4,
  items: [],
});

describe('shortfallText', () => {
  it('says whether the item runs out or ends below its minimum, on the check-in day', () => {
    expect(shortfallText({ shortfall: { stay_id: 's', arrival_date: '2026-11-27', kind: 'runs_out', projected: -1.5 } })).toBe(
      'Runs out before the check-in on Fri, Nov 27',
    );
    expect(shortfallText({ shortfall: { stay_id: 's', arrival_date: '2026-11-28', kind: 'below_minimum', projected: 2 } })).toBe(
      'Below minimum at the check-in on Sat, Nov 28',
    );
    expect(shortfallText({ shortfall: null })).toBeNull();
  });

  it('words what is there and what the stays will use', () => {
    expect(itemUseText({ quantity: 2, expected_use: 3.5 }, 7)).toBe('2 there now · about 3.5 used by the stays under way or arriving in the next 7 days');
    expect(itemUseText({ quantity: 0, expected_use: 12 }, 3)).toBe('0 there now · about 12 used by the stays under way or arriving in the next 3 days');
  });
});

describe('forecastEmptyState', () => {
  it('tells no stays at all from stays with nothing short', () => {
    expect(forecastEmptyState({ properties: [], properties_with_stays: 0 })).toBe('no-stays');
    expect(forecastEmptyState({ properties: [], properties_with_stays: 3 })).toBe('none-short');
    expect(forecastEmptyState({ properties: [property('a', null, null)], properties_with_stays: 3 })).toBeNull();
  });
});

describe('moreShortText', () => {
  it('counts the properties the list left out', () => {
    const shown = [property('a', null, null)];
    expect(moreShortText({ properties: shown, properties_short: 1 })).toBeNull();
    expect(moreShortText({ properties: shown, properties_short: 2 })).toBe('And 1 more unit runs short.');
    expect(moreShortText({ properties: shown, properties_short: 5 })).toBe('And 4 more units run short.');
  });
});

describe('garagesOf', () => {
  it('lists each garage once, in the order of urgency, without properties that have none', () => {
    const garages = garagesOf([property('a', 'g2', 'North'), property('b', null, null), property('c', 'g1', 'South'), property('d', 'g2', 'North')]);
    expect(garages).toEqual([
      { id: 'g2', name: 'North' },
      { id: 'g1', name: 'South' },
    ]);
  });
});

describe('serviceText', () => {
  const service = (pieces: number, chance: number, expected_pieces: number, expected_chance: number) => ({ level: 95, pieces, chance, expected_pieces, expected_chance });
  it('names the pieces beyond the expected use and both chances, rounded down', () => {
    expect(serviceText(service(33, 0.9534, 19, 0.3929))).toBe('+14 pieces: 95 % instead of 39 %');
    expect(serviceText(service(20, 0.951, 19, 0.93))).toBe('+1 piece: 95 % instead of 93 %');
    // Rounded down: 94.99 % is not shown as the 95 % it did not reach.
    expect(serviceText(service(20, 0.94999, 19, 0.9))).toBe('+1 piece: 94 % instead of 90 %');
  });
  it('says how sure the expected use already is, and nothing without an arrival', () => {
    expect(serviceText(service(10, 0.9949, 10, 0.9949))).toBe('99 % sure no arrival runs short');
    expect(serviceText(null)).toBeNull();
  });
  it('says what the level means', () => {
    expect(serviceLevelMeaning(98)).toBe('Pick lists bring enough for a 98 % chance that an arriving stay finds every item it needs.');
  });
});

describe('forecastSections and bringLine', () => {
  const item = (name: string, kind: 'runs_out' | 'below_minimum', bring: number) => ({
    item_id: name,
    item_name: name,
    category: 'c',
    quantity: 0,
    minimum_threshold: 2,
    expected_use: 1,
    shortfall: { stay_id: 's', arrival_date: '2026-11-27', kind, projected: 0 },
    bring,
  });

  it('puts a property with any item that runs out first, the others below minimum, each in the answer order', () => {
    const a = { ...property('a', null, null), items: [item('Soap', 'below_minimum', 1)] };
    const b = { ...property('b', null, null), items: [item('Soap', 'below_minimum', 1), item('Towel', 'runs_out', 3)] };
    const c = { ...property('c', null, null), items: [item('Towel', 'runs_out', 3)] };
    expect(forecastSections([a, b, c])).toEqual({ runsOut: [b, c], belowMinimum: [a] });
  });

  it('says what to bring on one line', () => {
    expect(bringLine({ items: [item('Coffee Pods', 'runs_out', 83), item('Bath Towel', 'below_minimum', 6)] })).toBe('Coffee Pods: bring 83 · Bath Towel: bring 6');
  });
});
