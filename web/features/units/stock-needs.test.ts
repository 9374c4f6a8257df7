/** Unit detail's "Needs stock": which rows, why, and the list's order with a search. */
import { describe, expect, it } from 'vitest';
import type { UnitForecastAnswer } from '../../../common/contracts/forecast';
import type { UnitStockRow } from '../../../common/contracts/stock';
import { needText, shownRows, stockNeeds } from './stock-needs';

const row = (item_id: string, quantity: number, minimum_threshold: number): UnitStockRow => ({
  id: `row-${item_id}`,
  item_id,
  item_name: item_id.replace(/^./, (c) => c.toUpperCase()).replace('-', ' '),
  quantity,
  minimum_threshold,
  status: quantity === 0 ? 'critical' : quantity < minimum_threshold ? 'low' : 'sufficient',
});

const forecastItem = (item_id: string, bring: number | null): UnitForecastAnswer['items'][number] => ({
  item_id,
  item_name: item_id,
  category: 'Bath',
  quantity: 2,
  minimum_threshold: 1,
  expected_use: 3,
  shortfall: bring === null ? null : { stay_id: 's', arrival_date: '2026-11-27', kind: 'runs_out', projected: -1 },
  bring: bring ?? 0,
  rate: { item_id, per_stay: 2, per_guest_night: 0.3, fixed_share: 0.5, stays: 4, dispersion: 1, basis: 'property' },
});

const rows = [row('bath-towel', 6, 4), row('coffee-pods', 1, 4), row('soap', 5, 2), row('toilet-paper', 0, 6)];

describe('stockNeeds', () => {
  it('takes the rows below their minimum, and with a forecast the rows that would start a check-in short', () => {
    expect([...stockNeeds(rows, undefined).keys()]).toEqual(['coffee-pods', 'toilet-paper']);
    const needs = stockNeeds(rows, { items: [forecastItem('bath-towel', 4), forecastItem('coffee-pods', 9), forecastItem('soap', null)] });
    expect([...needs.keys()]).toEqual(['bath-towel', 'coffee-pods', 'toilet-paper']);
    expect(needs.get('bath-towel')).toEqual({ belowMinimumBy: 0, shortBefore: { arrivalDate: '2026-11-27', bring: 4 } });
    expect(needs.get('coffee-pods')).toEqual({ belowMinimumBy: 3, shortBefore: { arrivalDate: '2026-11-27', bring: 9 } });
    expect(needs.get('toilet-paper')).toEqual({ belowMinimumBy: 6, shortBefore: null });
  });
});

describe('needText', () => {
  it('says by how much and before which check-in', () => {
    expect(needText({ belowMinimumBy: 3, shortBefore: null })).toBe('Below minimum by 3');
    expect(needText({ belowMinimumBy: 0, shortBefore: { arrivalDate: '2026-11-27', bring: 4 } })).toBe('Bring 4 before Fri, Nov 27');
    expect(needText({ belowMinimumBy: 3, shortBefore: { arrivalDate: '2026-11-27', bring: 9 } })).toBe('Below minimum by 3 · Bring 9 before Fri, Nov 27');
    expect(needText({ belowMinimumBy: 0, shortBefore: { arrivalDate: '2026-11-27', bring: 0 } })).toBe('Short before Fri, Nov 27');
  });
});

describe('shownRows', () => {
  const needs = stockNeeds(rows, undefined);
  const names = (shown: UnitStockRow[]) => shown.map((r) => r.item_id);

  it('puts the rows needing stock first, keeping the order otherwise', () => {
    expect(names(shownRows(rows, needs, '', false))).toEqual(['coffee-pods', 'toilet-paper', 'bath-towel', 'soap']);
  });

  it('keeps only the rows needing stock in the Needs stock view', () => {
    expect(names(shownRows(rows, needs, '', true))).toEqual(['coffee-pods', 'toilet-paper']);
  });

  it('finds an item by part of its name, in any case, in either view', () => {
    expect(names(shownRows(rows, needs, '  TOW ', false))).toEqual(['bath-towel']);
    expect(names(shownRows(rows, needs, 'o', true))).toEqual(['coffee-pods', 'toilet-paper']);
    expect(names(shownRows(rows, needs, 'towel', true))).toEqual([]);
  });
});
