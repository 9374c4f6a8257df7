import { describe, expect, it } from 'vitest';
import type { Garage, Unit } from '../../../common/contracts/stock';
import { setGarageQuantity, setRowQuantity } from './unit-stock';

const unit: Unit = {
  id: 'u1',
  name: 'Beach House',
  address: '1 Shore Lane',
  garage_id: 'g1',
  garage: { id: 'g1', name: 'Main', address: '1 Depot Road' },
  external_id: null,
  inventory: [
    { id: 's1', item_id: 'towel', item_name: 'Towel', quantity: 3, minimum_threshold: 2, status: 'sufficient' },
    { id: 's2', item_id: 'soap', item_name: 'Soap', quantity: 0, minimum_threshold: 1, status: 'critical' },
  ],
};

describe('unit stock on the unit page (docs/product.md "Screens: Unit detail")', () => {
  it('sets one row and derives its status again, leaving the other rows alone', () => {
    const less = setRowQuantity(unit, 'towel', 2);
    expect(less.inventory[0]).toMatchObject({ quantity: 2, status: 'low' });
    expect(less.inventory[1]).toBe(unit.inventory[1]);
    expect(setRowQuantity(unit, 'soap', 2).inventory[1]).toMatchObject({ quantity: 2, status: 'sufficient' });
    expect(setRowQuantity(unit, 'towel', 0).inventory[0]).toMatchObject({ quantity: 0, status: 'critical' });
  });

  it("updates the garage's remaining stock after a transfer", () => {
    const garages: Garage[] = [
      { id: 'g1', name: 'Main', address: 'a', inventory: [{ item_id: 'towel', item_name: 'Towel', quantity: 10 }] },
      { id: 'g2', name: 'Other', address: 'b', inventory: [{ item_id: 'towel', item_name: 'Towel', quantity: 5 }] },
    ];
    const after = setGarageQuantity(garages, 'g1', 'towel', 9);
    expect(after.map((g) => g.inventory[0]?.quantity)).toEqual([9, 5]);
  });
});
