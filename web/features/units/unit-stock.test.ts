import { describe, expect, it } from 'vitest';
import type { Garage, Unit } from '../../../common/contracts/stock';
import { applyAdjustment, applyStockResult, restoreRow, setGarageQuantity } from './unit-stock';

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

describe('unit stock on plus and minus (docs/product.md "States and transitions")', () => {
  it('moves the tapped row by one and recomputes its status', () => {
    const less = applyAdjustment(unit, 'towel', 'consume');
    expect(less.inventory[0]).toMatchObject({ quantity: 2, status: 'low' });
    expect(less.inventory[1]).toBe(unit.inventory[1]);
    expect(applyAdjustment(unit, 'towel', 'restock').inventory[0]).toMatchObject({ quantity: 4, status: 'sufficient' });
  });

  it('never goes below 0', () => {
    expect(applyAdjustment(unit, 'soap', 'consume').inventory[1]).toMatchObject({ quantity: 0, status: 'critical' });
  });

  it("takes the server's final number, not the guess plus the answer", () => {
    const guessed = applyAdjustment(unit, 'towel', 'restock');
    const settled = applyStockResult(guessed, 'towel', { unit_quantity: 4, garage_quantity: 9, status: 'sufficient' });
    expect(settled.inventory[0]).toMatchObject({ quantity: 4, status: 'sufficient' });
  });

  it('puts back only the refused row', () => {
    const both = applyAdjustment(applyAdjustment(unit, 'towel', 'restock'), 'soap', 'restock');
    const restored = restoreRow(both, unit, 'soap');
    expect(restored.inventory.map((row) => row.quantity)).toEqual([4, 0]);
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
