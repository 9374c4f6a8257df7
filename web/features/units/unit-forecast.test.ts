/** Unit detail's lines of the forecast: usage per stay, stays and short items. */
import { describe, expect, it } from 'vitest';
import type { UnitForecastAnswer } from '../../../common/contracts/forecast';
import { historyText, perStayByItem, shortItemsText, staysText } from './unit-forecast';

type Item = UnitForecastAnswer['items'][number];

const item = (item_id: string, per_stay: number, basis: Item['rate']['basis'], short: boolean): Item => ({
  item_id,
  item_name: item_id,
  category: 'Bath',
  quantity: 2,
  minimum_threshold: 1,
  expected_use: 3,
  shortfall: short ? { stay_id: 's', arrival_date: '2026-11-27', kind: 'runs_out', projected: -1 } : null,
  bring: short ? 2 : 0,
  rate: { item_id, per_stay, per_guest_night: 0.3, stays: 4, basis },
});

describe('perStayByItem', () => {
  it('words the known usage per stay and leaves out items without one', () => {
    const map = perStayByItem({ items: [item('towel', 2.14, 'property', false), item('soap', 0, 'none', false), item('pods', 3, 'default', false)] });
    expect([...map]).toEqual([
      ['towel', 'about 2.1 per stay'],
      ['pods', 'about 3 per stay'],
    ]);
  });
});

describe('staysText and shortItemsText', () => {
  const stay = { id: 's', source: 'demo' as const, arrival_date: '2026-11-27', departure_date: '2026-11-30', guests: 2, nights: 3, under_way: false };
  it('counts the stays of the horizon', () => {
    expect(staysText({ stays: [], horizon_days: 7 })).toBe('Next 7 days: no stays');
    expect(staysText({ stays: [stay], horizon_days: 7 })).toBe('Next 7 days: 1 stay');
    expect(staysText({ stays: [stay, { ...stay, id: 't' }], horizon_days: 7 })).toBe('Next 7 days: 2 stays');
  });

  it('counts the items that would start short', () => {
    expect(shortItemsText({ items: [item('towel', 2, 'property', false)] })).toBeNull();
    expect(shortItemsText({ items: [item('towel', 2, 'property', true), item('pods', 2, 'property', true)] })).toBe('2 items would start a check-in short');
  });
});

describe('historyText', () => {
  const withStays = (stays: number, basis: Item['rate']['basis']) => ({ ...item('towel', 2, basis, false), rate: { ...item('towel', 2, basis, false).rate, stays } });
  it("says when the property's own history is too short to learn its usage from", () => {
    expect(historyText({ items: [withStays(0, 'company'), withStays(0, 'none')] })).toBe("No past stays to learn this property's usage from yet: the forecast uses the company's usage.");
    expect(historyText({ items: [withStays(1, 'property')] })).toBe("1 past stay to learn from: the forecast leans on the company's usage until there are 4.");
    expect(historyText({ items: [withStays(3, 'property'), withStays(3, 'company')] })).toBe("3 past stays to learn from: the forecast leans on the company's usage until there are 4.");
  });

  it('says nothing with 4 stays or more, or when no item has a usage the company learned', () => {
    expect(historyText({ items: [withStays(4, 'property')] })).toBeNull();
    expect(historyText({ items: [withStays(0, 'default'), withStays(0, 'none')] })).toBeNull();
    expect(historyText({ items: [] })).toBeNull();
  });
});
