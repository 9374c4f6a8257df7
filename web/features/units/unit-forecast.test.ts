/** Unit detail's lines of the forecast: usage per stay, stays, short items and the past stays learned from. */
import { describe, expect, it } from 'vitest';
import type { UnitForecastAnswer } from '../../../common/contracts/forecast';
import { perStayByItem, shortItemsText, staysText } from './unit-forecast';

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
  rate: { item_id, per_stay, per_guest_night: 0.3, fixed_share: 0.5, stays: 4, dispersion: 1, basis },
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

  it('names the items that would start short, and counts those past the third', () => {
    expect(shortItemsText({ items: [item('towel', 2, 'property', false)] })).toBeNull();
    expect(shortItemsText({ items: [item('Towel', 2, 'property', true), item('Soap', 2, 'property', false)] })).toBe('Towel would start a check-in short');
    expect(shortItemsText({ items: [item('Towel', 2, 'property', true), item('Pods', 2, 'property', true)] })).toBe('Towel and Pods would start a check-in short');
    const five = ['Towel', 'Pods', 'Soap', 'Tea', 'Salt'].map((name) => item(name, 2, 'property', true));
    expect(shortItemsText({ items: five.slice(0, 3) })).toBe('Towel, Pods and Soap would start a check-in short');
    expect(shortItemsText({ items: five })).toBe('Towel, Pods, Soap and 2 more would start a check-in short');
  });
});
