import { describe, expect, it } from 'vitest';
import { filterUnits } from './unit-search';

const units = [
  { name: 'Beach House', address: '1 Shore Lane' },
  { name: 'City Loft', address: '22 Main Street' },
  { name: 'Cabin', address: '5 Beachwood Road' },
];

describe('filterUnits', () => {
  it('matches name or address, ignoring case', () => {
    expect(filterUnits(units, 'beach').map((u) => u.name)).toEqual(['Beach House', 'Cabin']);
    expect(filterUnits(units, 'MAIN st').map((u) => u.name)).toEqual(['City Loft']);
  });

  it('shows everything for an empty or blank query, nothing without a match', () => {
    expect(filterUnits(units, '  ')).toHaveLength(3);
    expect(filterUnits(units, 'castle')).toEqual([]);
  });
});
