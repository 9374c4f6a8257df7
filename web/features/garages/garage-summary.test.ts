/** The Garages list's summary of a garage's stock: items, low, out, by the stock status rule. */
import { describe, expect, it } from 'vitest';
import { garageSummary, itemsText } from './garage-summary';

describe('garageSummary', () => {
  const inventory = [
    { item_id: 'towel', item_name: 'Towel', quantity: 0 },
    { item_id: 'soap', item_name: 'Soap', quantity: 3 },
    { item_id: 'pods', item_name: 'Pods', quantity: 4 },
    { item_id: 'paper', item_name: 'Paper', quantity: 9 },
  ];
  const items = [
    { id: 'towel', minimum_threshold: 2 },
    { id: 'soap', minimum_threshold: 3 },
    { id: 'pods', minimum_threshold: 3 },
  ];

  it('counts rows at 0 as out and rows at or below the minimum as low', () => {
    expect(garageSummary({ inventory }, items)).toEqual({ items: 4, low: 1, out: 1 });
  });

  it('says nothing of statuses before the items are known', () => {
    expect(garageSummary({ inventory }, undefined)).toBeNull();
  });

  it('words the number of rows', () => {
    expect(itemsText(1)).toBe('1 item');
    expect(itemsText(31)).toBe('31 items');
  });
});
